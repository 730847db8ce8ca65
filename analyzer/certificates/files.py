"""Writing a certificate's four files, the PDF printed from the HTML by headless Chromium.

``certificate.md``, ``.html`` and ``.json`` are rendered from the model;
``certificate.pdf`` is the HTML printed by Chromium (``--print-to-pdf``), then
pinned.  The four are written as one set: built in a temporary folder beside
the certificate's folder, which then takes its place in one step
(:func:`~analyzer.util.files.replacing_folder`), so the folder holds one
game's certificate, never one game's Markdown beside another's PDF, even
when a run is interrupted or fails; the folder may hold nothing else.
Pinning: Chromium (Skia) stamps the print time into
``/CreationDate`` and ``/ModDate``; both are replaced by a fixed date of the
same length (so the cross-reference offsets stay valid), which makes the PDF
byte-identical on a re-run with the same Chromium.  The PDF is not tagged
(``--disable-pdf-tagging``): Chromium numbers the structure tree's elements after
its DOM nodes, and those numbers now and then differ between two prints of the
same page.  A different Chromium
version lays out and names its objects differently: bytes are reproducible for
one Chromium, not across versions (its version is in the PDF's ``/Creator``).

Without Chromium the other three files are still written (as a set: an old
PDF does not stay beside them) and the caller is told why there is no PDF.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from analyzer.certificates.model import Certificate, Settings, certify
from analyzer.core.errors import UsageError
from analyzer.core.presets import BUILT_VARIANTS, PRESETS, game_base
from analyzer.util.files import replacing_folder, write_atomic, write_bytes_atomic

CHROMIUM_NAMES = ("chromium", "chromium-browser")
PINNED_DATE = b"D:19700101000000+00'00'"
_DATE = re.compile(rb"/(CreationDate|ModDate) \((D:[^)]*)\)")
PRINT_TIMEOUT = 300  # seconds
PDF = "certificate.pdf"
CERTIFICATE_FILES = ("certificate.md", "certificate.html", "certificate.json", PDF)


def find_chromium() -> str | None:
    """The Chromium executable: ``$BJA_CHROMIUM``, else ``chromium`` on the PATH."""
    given = os.environ.get("BJA_CHROMIUM")
    if given is not None:
        return given if given and shutil.which(given) else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def pin_pdf(data: bytes) -> bytes:
    """Replace the print time in ``/CreationDate`` and ``/ModDate`` by a fixed date.

    Only a date of the pinned date's length is replaced, so no byte offset moves.
    """
    def fixed(m: re.Match[bytes]) -> bytes:
        stamp = m.group(2)
        new = PINNED_DATE if len(stamp) == len(PINNED_DATE) else stamp
        return b"/" + m.group(1) + b" (" + new + b")"

    return _DATE.sub(fixed, data)


def page_count(data: bytes) -> int:
    """Pages of a PDF: its ``/Type /Page`` objects (``/Pages`` excluded)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def chromium_command(chromium: str, html: Path, pdf: Path, profile: Path) -> list[str]:
    """Print ``html`` to ``pdf``; a profile folder of its own, so runs at once do not clash."""
    return [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
            "--disable-pdf-tagging", "--no-first-run", "--disable-extensions",
            f"--user-data-dir={profile}",
            f"--print-to-pdf={pdf}", html.resolve().as_uri()]


def print_pdf(html: Path, chromium: str | None = None) -> bytes:
    """Print ``html`` with headless Chromium; the pinned PDF bytes."""
    chromium = chromium or find_chromium()
    if chromium is None:
        raise UsageError("chromium not found (install the Debian package 'chromium' or set "
                         "BJA_CHROMIUM): certificate.pdf not written")
    with tempfile.TemporaryDirectory(prefix="bja-pdf-") as tmp:
        pdf = Path(tmp) / "certificate.pdf"
        env = {**os.environ, "TZ": "UTC", "HOME": tmp}  # a throwaway profile home
        try:
            command = chromium_command(chromium, html, pdf, Path(tmp) / "profile")
            subprocess.run(command, env=env, timeout=PRINT_TIMEOUT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, check=True)
            data = pdf.read_bytes()
        except (OSError, subprocess.SubprocessError) as err:
            raise UsageError(f"chromium could not print {str(html)!r}: "
                             f"{type(err).__name__}") from None
    if not data.startswith(b"%PDF"):
        raise UsageError(f"chromium printed no PDF for {str(html)!r}")
    return pin_pdf(data)


def write_certificate(c: Certificate, out: Path, *,
                      pdf: bool = True) -> tuple[list[Path], str | None]:
    """Write ``certificate.{md,html,json}`` (and ``.pdf``) as the folder ``out``, as one set.

    Returns the paths written and, when the PDF was asked for but could not be
    printed (no Chromium), why: the other three are written all the same.
    """
    from analyzer.certificates.render import render_html, render_json, render_markdown

    texts = {f"certificate.{ext}": render(c) for ext, render in (
        ("md", render_markdown), ("html", render_html), ("json", render_json))}
    no_pdf = None
    with replacing_folder(out, CERTIFICATE_FILES) as staging:
        for name, text in texts.items():
            write_atomic(staging / name, text)
        if pdf:
            try:
                write_bytes_atomic(staging / PDF, print_pdf(staging / "certificate.html"))
            except UsageError as err:
                no_pdf = str(err)
    names = [*texts, *([PDF] if pdf and no_pdf is None else [])]
    return [out / name for name in names], no_pdf


def build_certificates(root: Path, progress: Callable[[str], None] | None = None,
                       games: tuple[str, ...] | None = None,
                       settings: Settings | None = None) -> list[Path]:
    """``bja build``: the certificates of the seed games and the built variants
    (:data:`~analyzer.core.presets.BUILT_VARIANTS`) under ``root/reports/<game>/``.

    Without Chromium the PDFs are skipped (said through ``progress``), not the build.
    """
    say = progress or (lambda _msg: None)
    written: list[Path] = []
    for name in games if games is not None else (*PRESETS, *BUILT_VARIANTS):
        preset = PRESETS.get(name)  # a variant has no casino rule text: its spec is the game
        cert = certify(game_base(name), name, preset, settings or Settings(), progress=say)
        paths, no_pdf = write_certificate(cert, root / "reports" / name)
        written += paths
        if no_pdf is not None:
            say(f"{name}: {no_pdf}")
    return written


__all__ = ["CERTIFICATE_FILES", "PINNED_DATE", "build_certificates", "find_chromium",
           "page_count", "pin_pdf", "print_pdf", "write_certificate"]
