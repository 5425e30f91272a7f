"""What ``run`` (the grading process) and the scoring process's pytest session agree on.

Both sides import these two names from here, so neither imports the other: ``run``
starts the scoring process (through the zygote), whose fixtures read the extracted
submission and exit with ``ENVIRONMENT_EXIT`` when no worker could start.
"""

# The scoring process's exit code when a sandboxed worker could not start at all (before
# any student code): a grading error, never a student's zero.
ENVIRONMENT_EXIT = 17
# The submission as ``autograder.extract.to_json`` wrote it, for the scoring process.
EXTRACTED_ENV = "AUTOGRADER_EXTRACTED"
