# Shortcuts for tasks.py (which needs nothing but Python 3.11).
.PHONY: demo test bench
demo:
	python3 tasks.py demo
test:
	python3 tasks.py test
bench:
	python3 tasks.py test --co -q >/dev/null; .venv/bin/python benchmarks/bench_dice.py
