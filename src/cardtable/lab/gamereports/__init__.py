"""Each game's own tables of a lab report, one module per game, found through its kit (``GameKit.report_tables``)."""
