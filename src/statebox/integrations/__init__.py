"""Optional bridges to other tools: an Inspect AI task (`statebox[inspect]`) and a Ray executor
(`statebox[ray]`). The core never imports this package; each sub-package imports its extra."""
