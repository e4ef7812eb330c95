import pytest
from reports.report_sources import Documents, load_documents


@pytest.fixture(scope="session")
def documents() -> Documents:
    return load_documents()
