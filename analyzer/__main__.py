"""``python -m analyzer`` runs the ``bja`` command line."""

from analyzer.cli import main

raise SystemExit(main())
