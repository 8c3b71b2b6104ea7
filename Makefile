# kgrag: `make demo` installs everything into .venv and runs the demo; `make test` runs the test suite.
VENV   ?= .venv
PYTHON ?= python3
BIN     = $(VENV)/bin
# Portable llama.cpp build for llama-cpp-python (no -march=native; AVX2/FMA as on our machines).
export CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: install demo test test-slow lint bench clean

install: $(BIN)/.installed

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -e ".[llm,nlp,server,ocr,dev]"
	bash scripts/install_ocr.sh || echo "note: Tesseract OCR not installed (optional; scanned pages use RapidOCR from the ocr extra)"
	touch $@

demo: install
	$(BIN)/kgrag demo

test: install
	$(BIN)/python -m pytest -q -m "not slow"

# pytest exits 5 when no test is selected: not a failure here.
test-slow: install
	$(BIN)/python -m pytest -q -m "slow"; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; fi; exit $$rc

lint: install
	$(BIN)/ruff check src tests benchmarks

clean:
	rm -rf $(VENV) demo-index .pytest_cache
