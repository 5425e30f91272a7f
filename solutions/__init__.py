"""Reference solutions, one package per assignment: ``solutions.<assignment>``.

The scoring process imports them to compute expected values; the sandbox never lets
student code read this folder (see ``autograder/sandbox``)."""
