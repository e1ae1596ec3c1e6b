"""The settings lifecycle: initializationOptions, `workspace/configuration` (asked for when the
client supports it) and `workspace/didChangeConfiguration`, parsed by settings.py; a bad value
is shown once, per key, and the rest still applies."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from ...engine.files import set_max_file_size
from ..scheduler import spawn
from ..settings import parse_editor_settings
from ..workspace import workspace_rules
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

log = logging.getLogger(__name__)

CONFIG_SECTION = "pallas-ls"


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        if session.client.configuration:  # the notification only says "ask again"
            spawn(fetch(session, pipeline))
            return
        settings = params.settings
        if isinstance(settings, dict) and CONFIG_SECTION in settings:
            settings = settings[CONFIG_SECTION]
        session.config_section = settings
        apply_settings(session, pipeline)


def apply_settings(session: Session, pipeline: Pipeline, notify: bool = True) -> None:
    """Parse the settings layers again; `notify`: analyse every open document under them."""
    editor, warnings = parse_editor_settings(session.init_options, session.config_section)
    session.editor = editor
    set_max_file_size(editor.max_file_size)  # `maxFileSize` (issue 15)
    for warning in warnings:
        if warning not in session.settings_warnings:  # each problem once, until it is fixed
            session.show_warning(f"pallas-ls settings: {warning}; using the default for it", once=False)
    session.settings_warnings = set(warnings)
    use_configured_rules(session)
    if notify:
        pipeline.settings_changed()


def use_configured_rules(session: Session) -> None:
    """The rules' options (`tpuGeneration`) from the editor's settings, else the workspace's pyproject."""
    session.analyzer.use_rules(workspace_rules(session.roots, session.editor.rules.tpu_generation))


async def fetch(session: Session, pipeline: Pipeline, notify: bool = True) -> None:
    """Ask the client for the `pallas-ls` section; apply it when it changed."""
    try:
        values = await session.server.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=CONFIG_SECTION)])
        )
    except Exception as exc:  # noqa: BLE001 - a client that cannot answer keeps the old settings
        log.warning("workspace/configuration failed: %s", exc)
        return
    section = values[0] if values else None
    if section != session.config_section:
        session.config_section = section
        apply_settings(session, pipeline, notify=notify)
