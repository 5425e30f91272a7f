#!/bin/sh
# The staff's commands of docs/instructors.md's "The nbgrader loop", one step each, for
# one assignment: `sh autograder/handoff/course.sh STEP NAME` (the guide says `sh course.sh`
# for short), run in the course folder (the one with
# nbgrader_config.py; this checkout works) with .venv/bin on PATH. Each step prints the
# command it runs. tests/test_course_workflow.py runs these steps, in the guide's order, for
# every assignment; the guide names them and never spells a command out a second time.
set -eu

usage() {
    echo "usage: sh course.sh STEP NAME, STEP one of: generate release collect zip_collect" \
         "grade handoff export release_feedback" >&2
    exit 2
}
[ $# -eq 2 ] || usage
step=$1
name=$2

run() {
    echo "+ $*"
    "$@"
}

case "$step" in
    # 1. Make the release and the assignment's gradebook entries. --force: in a checkout the
    #    committed release exists, and without it nbgrader skips the assignment and writes no
    #    gradebook; the release it writes is the committed one (make test checks).
    #    The students' preflight.py is built from the grader's code after nbgrader, as
    #    `make release` does (the release folder is nbgrader_config.py's, assignments/).
    generate) run nbgrader generate_assignment "$name" --force
              run python -m autograder.extract.ship "assignments/$name" ;;
    # 2. Put the release in the exchange (or hand out `make student-bundle`'s zip).
    release) run nbgrader release_assignment "$name" ;;
    # 3. Fill submitted/<student>/NAME/: from the exchange, or from LMS downloads in
    #    downloaded/NAME/archive/ named as nbgrader_config.py's pattern says.
    collect) run nbgrader collect --update "$name" ;;
    zip_collect) run nbgrader zip_collect "$name" ;;
    # 4. Grade in the sandbox: graded/NAME/grades.csv, the reports and summary.md.
    grade) run python -m autograder grade submitted --assignment "$name" --out "graded/$name" ;;
    # 5. (and 7.) Put the scores into the gradebook and write the feedback pages.
    handoff) run python -m autograder.handoff --course . --grades "graded/$name/grades.csv" ;;
    # 8. Every assignment's grades (NAME aside), manual ones and late penalties included, in
    #    final.csv (not nbgrader's default grades.csv: that name is the grader's).
    export) run nbgrader export --to final.csv ;;
    release_feedback) run nbgrader release_feedback "$name" ;;
    *) usage ;;
esac
