"""The one place the Inspect task reaches into Inspect AI's private names, each checked when this loads.

Inspect prints the message of its `PrerequisiteError` alone (every other exception with a traceback),
and gives no public way to read the eval's generate config or the model under evaluation, which a
call's own `extra_headers` must repeat (they replace, not extend, the configured ones). A release that
renames these stops at import with one line naming the inspect-ai version.
"""

from __future__ import annotations

import inspect_ai._util.error as _errors
import inspect_ai.model._generate_config as _generate_config
import inspect_ai.model._model as _model

from statebox.private_api import require

DISTRIBUTION = "inspect-ai"
require(_errors, ("PrerequisiteError",), distribution=DISTRIBUTION, needed_by=__name__)
require(_generate_config, ("active_generate_config",), distribution=DISTRIBUTION, needed_by=__name__)
require(_model, ("active_model",), distribution=DISTRIBUTION, needed_by=__name__)

PrerequisiteError = _errors.PrerequisiteError
active_generate_config = _generate_config.active_generate_config
active_model = _model.active_model
