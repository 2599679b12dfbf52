"""A WebSocket client on a bare TCP socket, for clients no library would be: one that never
reads (with a small receive buffer, so that the server's documents pile up after a few
kilobytes), one that sends binary frames, one that never answers pings.

    client = RawSocket.connect("127.0.0.1", 8000, "/api/games/x/ws", receive_buffer=4096)
    client.send_text('{"type": "ping"}')
    client.read_messages(timeout=5)      # every text message until the server closes
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from dataclasses import dataclass, field

TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA


@dataclass
class Received:
    """What a read brought: the text messages, and whether the server ended the connection
    (a close frame, or the end of the stream) before the read's deadline."""

    texts: list[str] = field(default_factory=list)
    closed: bool = False
    close_code: int | None = None


class RawSocket:
    """One client connection, after the opening handshake."""

    def __init__(self, sock: socket.socket, leftover: bytes) -> None:
        self.sock = sock
        self._buffer = leftover

    @classmethod
    def connect(cls, host: str, port: int, path: str, *, receive_buffer: int | None = None,
                headers: dict[str, str] | None = None) -> RawSocket:
        """Open ``path`` and complete the handshake; raises ``ConnectionError`` if refused."""
        sock = socket.socket()
        if receive_buffer is not None:  # before connect: it sets the window the server sees
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.settimeout(10)
        sock.connect((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError("the server closed during the handshake")
            answer += chunk
        head, _, rest = answer.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))
        return cls(sock, rest)

    def send_frame(self, opcode: int, payload: bytes) -> None:
        """One final frame, masked as a client's must be."""
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send_text(self, text: str) -> None:
        self.send_frame(TEXT, text.encode())

    def send_binary(self, data: bytes) -> None:
        self.send_frame(BINARY, data)

    def read_messages(self, *, timeout: float, count: int | None = None) -> Received:
        """Read frames until the server closes, ``count`` text messages came, or ``timeout``
        seconds pass. Pings are not answered (a client that does answer them is a library's)."""
        received = Received()
        deadline = time.monotonic() + timeout
        while count is None or len(received.texts) < count:
            frame = self._next_frame(deadline)
            if frame is None:
                received.closed = self._ended
                return received
            opcode, payload = frame
            if opcode == TEXT:
                received.texts.append(payload.decode())
            elif opcode == CLOSE:
                received.closed = True
                received.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                return received
        return received

    _ended = False

    def _next_frame(self, deadline: float) -> tuple[int, bytes] | None:
        header = self._take(2, deadline)
        if header is None:
            return None
        opcode, size = header[0] & 0x0F, header[1] & 0x7F
        if size == 126:
            extended = self._take(2, deadline)
            if extended is None:
                return None
            size = struct.unpack("!H", extended)[0]
        elif size == 127:
            extended = self._take(8, deadline)
            if extended is None:
                return None
            size = struct.unpack("!Q", extended)[0]
        payload = self._take(size, deadline)  # a server's frames are not masked
        return None if payload is None else (opcode, payload)

    def _take(self, size: int, deadline: float) -> bytes | None:
        while len(self._buffer) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._ended:
                return None
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            except ConnectionError:
                chunk = b""
            if not chunk:
                self._ended = True
                return None
            self._buffer += chunk
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        return taken

    def close(self) -> None:
        self.sock.close()
