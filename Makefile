# Easel: `make run` opens the app, `make test` runs every test. Both set everything up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.easel-installed
RAY_STAMP := $(VENV)/.easel-ray-installed
MODELS := resources/models/u2netp.onnx resources/models/face_detection_full_range.tflite

.PHONY: setup setup-ray run test lint bench clean

setup: $(STAMP) $(MODELS)

# Ray is an optional extra (batches and indexing on a cluster); the tests need it.
setup-ray: $(RAY_STAMP)

$(RAY_STAMP): requirements-ray.txt constraints.txt | $(STAMP)
	$(PY) -m pip install -q -r requirements-ray.txt -c constraints.txt
	touch $(RAY_STAMP)

$(STAMP): requirements.txt constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt -c constraints.txt
	@# rembg compiles numba code on its first import (~1 min); do it once here, not in the app.
	$(PY) -c "import rembg" 2>/dev/null || true
	touch $(STAMP)

$(MODELS): scripts/fetch_models.py | $(STAMP)
	$(PY) scripts/fetch_models.py

run: setup
	$(PY) main.py $(ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

test: setup setup-ray lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

bench: setup
	$(PY) bench/ops.py
	$(PY) bench/memory.py
	$(PY) bench/library.py

clean:
	rm -rf $(VENV) resources/models .pytest_cache
