"""Sources of `fake_tb_server`, copied into generated fake checkouts (see `fake_checkout`)."""
