import gc
import sys

from generator.cli import main

code = main()
# The process ends here: no last collection over everything a build made (the interpreter
# collects at exit only when collection is on).
gc.disable()
sys.exit(code)
