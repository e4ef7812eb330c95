"""The web application: the FastAPI app and the dependencies its routes declare."""
