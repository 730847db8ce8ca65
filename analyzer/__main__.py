"""``python -m analyzer`` runs the ``bja`` command line (Ctrl-C handled from its first line)."""

from analyzer.cli.entry import main

raise SystemExit(main())
