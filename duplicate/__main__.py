from duplicate.cli import main

main()
