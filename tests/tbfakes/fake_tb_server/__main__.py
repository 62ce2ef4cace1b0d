"""`python -m fake_tb_server`: serve MCP over stdio."""

from .app import main

main()
