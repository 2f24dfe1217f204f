"""pygame rendering of any engine geometry, prompts and score panels; headless screenshots."""
