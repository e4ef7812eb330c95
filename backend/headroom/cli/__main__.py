from headroom.cli import main

main()
