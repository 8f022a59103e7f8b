"""A real SMTP server on loopback (aiosmtpd, in a thread of the test process) that keeps every
message it receives: the password-reset emails are sent to it over SMTP by Django's email
backend, from the test process or from a Daphne the test started."""

from __future__ import annotations

import email
import email.policy
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from .servers import free_port

HOST = "127.0.0.1"


class Inbox:
    """What the server received, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.port = 0

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        self.messages.append(email.message_from_bytes(content, policy=email.policy.default))
        return "250 Message accepted for delivery"

    def wait_for(self, to: str, timeout: float = 15.0) -> EmailMessage:
        """The first message to ``to``, waiting for it to arrive."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.messages:
                if to in message["To"]:
                    return message
            time.sleep(0.05)
        raise AssertionError(f"no email to {to} within {timeout} s: {len(self.messages)} others")

    @staticmethod
    def body(message: EmailMessage) -> str:
        part = message.get_body(preferencelist=("plain",))
        assert part is not None, "the email has no plain-text part"
        return part.get_content()

    @classmethod
    def link(cls, message: EmailMessage) -> str:
        """The one http(s) link of the message's text."""
        links = re.findall(r"https?://\S+", cls.body(message))
        assert len(links) == 1, links
        return links[0]


@contextmanager
def running_smtp_server() -> Iterator[Inbox]:
    """An SMTP server listening on loopback (TEST_SMTP_PORT, else a free port) meanwhile."""
    inbox = Inbox()
    inbox.port = int(os.environ.get("TEST_SMTP_PORT", "0")) or free_port()
    controller = Controller(inbox, hostname=HOST, port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp_server() -> Iterator[Inbox]:
    """An SMTP server on loopback for one test."""
    with running_smtp_server() as inbox:
        yield inbox
