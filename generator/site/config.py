"""What the generator reads of the MkDocs config: the site's address and where the seed files live."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import yaml
from yaml_env_tag import construct_env_tag


@dataclass(frozen=True)
class Repository:
    """Where the seed files live (mkdocs.yml ``extra.repository`` and ``extra.branch``):
    a paper page links each of its sources there, and its curation file for corrections."""

    url: str = ""
    branch: str = "main"

    def blob(self, path: str) -> str:
        # percent-encoded: a "#" or "?" in a seed file's name would end the path
        return f"{self.url}/blob/{self.branch}/{quote(path, safe='/')}"

    def edit(self, path: str) -> str:
        return f"{self.url}/edit/{self.branch}/{path}"


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml may hold tags such as !relative or !!python/name: read as null, not an error.
    ``!ENV`` is read as MkDocs reads it (its own dependency, pyyaml_env_tag), so that the
    generator and MkDocs agree on ``site_url: !ENV SITE_URL``."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)
_IgnoreTags.add_constructor("!ENV", construct_env_tag)


def mkdocs_config(config: Path) -> dict:
    """The MkDocs config as plain data ({} when it cannot be read: MkDocs reports that itself)."""
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_IgnoreTags)  # noqa: S506 - a SafeLoader
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def site_url(config: Path = Path("mkdocs.yml")) -> str:
    """``site_url`` from the MkDocs config (``!ENV`` resolved), ending in "/" as MkDocs makes
    it, or "" when there is none."""
    value = mkdocs_config(config).get("site_url")
    if not isinstance(value, str) or not value.strip():
        return ""
    return value if value.endswith("/") else value + "/"


def site_repository(config: Path = Path("mkdocs.yml")) -> Repository:
    """Where the seed files live: ``extra.repository`` and ``extra.branch`` of the MkDocs config."""
    extra = mkdocs_config(config).get("extra")
    extra = extra if isinstance(extra, dict) else {}
    url, branch = extra.get("repository"), extra.get("branch")
    return Repository(url if isinstance(url, str) else "", branch if isinstance(branch, str) else "main")
