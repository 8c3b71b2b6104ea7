"""Answer building blocks: context units, question-focused selection, extractive answers, inline citations."""
