"""The migrations build exactly the schema the models declare, on SQLite and PostgreSQL,
and go down again cleanly."""

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from headroom.core.migrations import alembic_config
from headroom.core.settings import Settings
from headroom.models import Base


def test_models_and_migrations_agree(settings: Settings) -> None:
    engine = create_engine(settings.resolved_database_url())
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"render_as_batch": True})
        differences = compare_metadata(context, Base.metadata)
    engine.dispose()
    assert differences == []


def test_downgrade_to_base_and_up_again(settings: Settings) -> None:
    config = alembic_config(settings)
    command.downgrade(config, "base")
    engine = create_engine(settings.resolved_database_url())
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()
    command.upgrade(config, "head")
    engine = create_engine(settings.resolved_database_url())
    assert {"user", "dataset", "job", "upload"} <= set(inspect(engine).get_table_names())
    engine.dispose()
