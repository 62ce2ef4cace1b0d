"""statebox as an OpenEnv environment: any built-in suite, one episode per WebSocket session.

Needs the optional extra `statebox[openenv]` (`openenv-core`); nothing in statebox's core imports
this package. `splits`, `episode`, `shaped` and `chat` need only statebox itself.
"""
