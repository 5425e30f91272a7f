# Two commands for users: `make demo` and `make test`. Both set up .venv when it is missing.
PY := .venv/bin/python
STAMP := .venv/.installed

.PHONY: setup release student-bundle demo test bench bench-batch gradescope mutation lint

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Instructor: regenerate the student release in assignments/ from source/ with nbgrader
## (nbgrader_config.py; nbgrader runs `alembic`, so .venv/bin goes on PATH).
release: $(STAMP)
	PATH="$(CURDIR)/.venv/bin:$$PATH" $(PY) -m nbgrader generate_assignment tokenization --force

## Instructor: what students receive: $(BUNDLE)/<assignment>.zip per assignment of the
## release, with a short requirements note; refuses to build if anything hidden is in it.
BUNDLE ?= dist/student
student-bundle: $(STAMP)
	$(PY) -m autograder.student_bundle --out $(BUNDLE)

## TA: grade the bundled sample submissions and print the class summary.
demo: $(STAMP)
	$(PY) -m autograder grade samples/submitted --out out/demo

## Everyone: the repository's own tests.
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check .

## Speed: seconds per submission of our hidden suite vs `nbgrader autograde`, side by side.
bench: $(STAMP)
	$(PY) -m autograder.bench

## Scale: grade 200 generated submissions (correct, wrong, stubs, hanging, crashing) with --jobs 2.
bench-batch: $(STAMP)
	$(PY) -m autograder.bench_batch --count 200 --jobs 2

## Validity: grade one-change mutants of the reference; writes autograder/validity/MUTATION.md.
mutation: $(STAMP)
	$(PY) -m autograder.validity.mutation

## Validity: timing tests under CPU load, 30 runs; writes autograder/validity/TIMING.md.
.PHONY: timing-stability
timing-stability: $(STAMP)
	$(PY) -m autograder.validity.timing_stability --runs 30

## Scale out: build autograder.zip for Gradescope (setup.sh, run_autograder, grader, reference).
gradescope: $(STAMP)
	$(PY) -m autograder.gradescope.bundle --out autograder.zip
