"""``python -m analyzer`` runs the ``bja`` command line."""

from analyzer.cli.main import main

raise SystemExit(main())
