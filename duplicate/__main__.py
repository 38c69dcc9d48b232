from duplicate.cli import main

# Guarded: Dask's worker processes import this module again under another name.
if __name__ == "__main__":
    main()
