"""The commands as library functions: each loads its event (duplicate.load.load_event),
computes, and gives a typed result that the publisher writes (duplicate.io.publish).

The command line is one caller of these functions; a Python program is another, and
gets the same results.
"""
