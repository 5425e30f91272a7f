# Two commands for users: `make demo` and `make test`. Both set up .venv when it is missing.
PY := .venv/bin/python
STAMP := .venv/.installed
# The course's assignments: the folders of autograder/hidden/ with a spec.py. Targets that
# take A=NAME do every assignment without it.
ASSIGNMENTS := $(patsubst autograder/hidden/%/spec.py,%,$(wildcard autograder/hidden/*/spec.py))
A ?= $(ASSIGNMENTS)

.PHONY: setup release student-bundle demo test test-all bench bench-compare bench-batch gradescope mutation lint

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Instructor: regenerate the student release in assignments/ from source/ with nbgrader
## (nbgrader_config.py; nbgrader runs `alembic`, so .venv/bin goes on PATH), then write
## each release's preflight.py from the grader's extraction code (autograder/extract/ship.py).
## An assignment whose data is built from the repository (source/NAME/make_data.py, offline)
## gets it rebuilt first, so the release never ships data older than its builder.
release: $(STAMP)
	for a in $(A); do \
	  if [ -f source/$$a/make_data.py ]; then $(PY) source/$$a/make_data.py || exit 1; fi; \
	  PATH="$(CURDIR)/.venv/bin:$$PATH" $(PY) -m nbgrader generate_assignment $$a --force || exit 1; \
	  $(PY) -m autograder.extract.ship assignments/$$a || exit 1; \
	done

## Instructor: what students receive: $(BUNDLE)/<assignment>.zip per assignment of the
## release, with a short requirements note; refuses to build if anything hidden is in it.
BUNDLE ?= dist/student
student-bundle: $(STAMP)
	$(PY) -m autograder.student_bundle --out $(BUNDLE)

## TA: grade the bundled sample submissions and print the class summary (one report
## folder per assignment in out/demo/).
demo: $(STAMP)
	for a in $(A); do \
	  $(PY) -m autograder grade samples/submitted --assignment $$a --out out/demo/$$a || exit 1; \
	done

## Everyone: the repository's own tests. `test` leaves out those marked slow (pyproject.toml:
## each takes over about 5 s) and runs the rest in two pytest processes, a test file to each
## in turn (pytest-xdist: one pytest alone keeps one core of two busy). `test-all` is what CI
## runs (.ci/run): every test not marked alone the same way, then those marked alone, red-team
## tests that kill or outwait the processes they can reach or time their victims, in one
## process.
## The tests start Python hundreds of times: they let it keep bytecode in __pycache__
## (gitignored; the release, the bundles and the suite fingerprint leave it out) even where
## the environment turns that off, which costs each start a recompile.
test: $(STAMP)
	$(PY) -m ruff check .
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m "not slow" -n 2 --dist loadfile

test-all: $(STAMP)
	$(PY) -m ruff check .
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m "not alone" -n 2 --dist loadfile
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m alone

lint: $(STAMP)
	$(PY) -m ruff check .

## Speed: seconds per submission of our hidden suite vs `nbgrader autograde`, side by side;
## an assignment's own benchmark (bench_reference.py in its folder) runs after it.
bench: $(STAMP)
	for a in $(A); do \
	  $(PY) -m autograder.bench --assignment $$a || exit 1; \
	  if [ -f autograder/hidden/$$a/bench_reference.py ]; then \
	    $(PY) -m autograder.hidden.$$a.bench_reference || exit 1; fi; \
	done

## Speed against a baseline: the same notebooks graded by this checkout and by AGAINST (another
## checkout: `git worktree add ../base REV`), in turns, pair by pair (autograder/bench_compare.py).
bench-compare: $(STAMP)
	test -n "$(AGAINST)" || { echo "usage: make bench-compare A=NAME AGAINST=DIR"; exit 2; }
	for a in $(A); do $(PY) -m autograder.bench_compare --assignment $$a --against $(AGAINST) \
	  || exit 1; done

## Scale: grade a generated class (COUNT, default 200: half correct, a quarter wrong, 10% stubs,
## 15% hanging or crashing) of each assignment with --jobs 2 (autograder/bench_batch/).
COUNT ?= 200
bench-batch: $(STAMP)
	for a in $(A); do $(PY) -m autograder.bench_batch --assignment $$a --count $(COUNT) --jobs 2 \
	  || exit 1; done

## Validity: grade one-change mutants of the reference; writes autograder/hidden/NAME/MUTATION.md.
mutation: $(STAMP)
	for a in $(A); do $(PY) -m autograder.validity.mutation --assignment $$a || exit 1; done

## Validity: timing tests under CPU load, RUNS (default 30) runs of the reference, its timing
## variants, the catalogue's correct submissions and its wrong ones only a timing test catches;
## writes autograder/hidden/NAME/TIMING.md (CPUS=0: each grading kept to CPU 0, as a batch's
## gradings are kept to a core; REPORTS=DIR: write DIR/NAME-TIMING.md instead).
RUNS ?= 30
.PHONY: timing-stability
timing-stability: $(STAMP)
	for a in $(A); do \
	  if [ -f autograder/hidden/$$a/timing_variants.py ]; then \
	    rm -rf .timing-correct .timing-wrong \
	      && $(PY) -m tests.catalogue.write_correct $$a .timing-correct >/dev/null \
	      && $(PY) -m tests.catalogue.write_correct $$a .timing-wrong --timed >/dev/null \
	      && $(PY) -m autograder.validity.timing_stability --assignment $$a --runs $(RUNS) \
	        $(if $(CPUS),--cpus $(CPUS)) $(if $(REPORTS),--report $(REPORTS)/$$a-TIMING.md) \
	        --also $$(find .timing-correct -type f | sort) \
	        --wrong $$(find .timing-wrong -type f | sort) || exit 1; fi; \
	done; rm -rf .timing-correct .timing-wrong

## Budgets: the most CPU one request of each hidden test takes in correct work (the reference,
## its timing variants, the catalogue's correct submissions), under 2 busy loops; writes
## autograder/hidden/NAME/CALL_COSTS.json (autograder/validity/call_costs.py). Rerun after
## changing a hidden test or the reference, and commit the file with them.
.PHONY: call-costs
call-costs: $(STAMP)
	for a in $(A); do \
	  rm -rf .call-costs && $(PY) -m tests.catalogue.write_correct $$a .call-costs --full-marks \
	     >/dev/null \
	  && $(PY) -m autograder.validity.call_costs --assignment $$a --runs 2 --load 2 \
	     --also .call-costs/* || exit 1; \
	done; rm -rf .call-costs

## Scale out: build autograder-NAME.zip for Gradescope (setup.sh, run_autograder, the engine,
## the assignment's hidden tests and reference).
gradescope: $(STAMP)
	for a in $(A); do $(PY) -m autograder.gradescope.bundle --assignment $$a || exit 1; done
