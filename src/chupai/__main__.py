from chupai.cli import main

raise SystemExit(main())
