"""Print the OpenAPI document (the front end generates its API types from it)."""

import json
import sys

from tradeideas.app import create_app
from tradeideas.settings import Settings


def main() -> None:
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    json.dump(app.openapi(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
