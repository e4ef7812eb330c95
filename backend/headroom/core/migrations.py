from alembic import command
from alembic.config import Config

from headroom.core.settings import Settings


def alembic_config(settings: Settings) -> Config:
    config = Config(str(settings.migrations_dir / "alembic.ini"))
    config.set_main_option("script_location", str(settings.migrations_dir))
    config.attributes["database_url"] = settings.resolved_database_url()
    return config


def upgrade(settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(settings), "head")
