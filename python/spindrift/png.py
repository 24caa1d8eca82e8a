"""PNG files for images as NumPy arrays, with the standard library's zlib only: write_png writes
(height, width, 4) or (height, width, 3) uint8 images (8-bit RGBA or RGB, no filtering), through
a temporary file renamed into place; read_png reads 8-bit greyscale, grey-alpha, RGB and RGBA
non-interlaced PNGs (every filter type), as `spindrift render` and most tools write them."""

import os
import struct
import tempfile
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> channels (8-bit only)


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_png(image):
    """The bytes of a PNG of image ((H, W, 4) or (H, W, 3) uint8)."""
    if not isinstance(image, np.ndarray):
        raise TypeError(f"image: expected a numpy.ndarray, got {type(image).__name__}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ValueError(f"image: expected (H, W, 3 or 4) uint8, got {image.shape} {image.dtype}")
    height, width, channels = image.shape
    if width < 1 or height < 1:
        raise ValueError(f"image: expected at least 1x1 pixels, got {width}x{height}")
    rows = np.zeros((height, 1 + width * channels), dtype=np.uint8)  # filter byte 0: none
    rows[:, 1:] = image.reshape(height, width * channels)
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
        + _chunk(b"IEND", b"")
    )


def write_png(path, image):
    """Writes image to path: a temporary file in the same folder, renamed over path when whole."""
    data = encode_png(image)
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    handle, temporary = tempfile.mkstemp(prefix=".spindrift-", suffix=".png.tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(raw, height, stride, bpp):
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int32)
    position = 0
    for y in range(height):
        kind = raw[position]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=position + 1).astype(np.int32)
        position += 1 + stride
        if kind == 0:
            row = line
        elif kind == 2:
            row = (line + previous) & 0xFF
        elif kind in (1, 3, 4):
            # Left-dependent filters: byte by byte (bpp apart), in Python ints.
            row = line.tolist()
            up = previous.tolist()
            for x in range(stride):
                left = row[x - bpp] if x >= bpp else 0
                upper_left = up[x - bpp] if x >= bpp else 0
                if kind == 1:
                    predictor = left
                elif kind == 3:
                    predictor = (left + up[x]) >> 1
                else:
                    predictor = _paeth(left, up[x], upper_left)
                row[x] = (row[x] + predictor) & 0xFF
            row = np.array(row, dtype=np.int32)
        else:
            raise ValueError(f"PNG row {y}: unknown filter type {kind}")
        out[y] = row
        previous = row
    return out


def read_png(path):
    """The image of an 8-bit non-interlaced PNG as (H, W, C) uint8, C the file's channels (1 grey,
    2 grey-alpha, 3 RGB, 4 RGBA). Anything else raises ValueError."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(_SIGNATURE):
        raise ValueError(f"{os.fspath(path)}: not a PNG file")
    position = len(_SIGNATURE)
    header = None
    compressed = bytearray()
    while position + 8 <= len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if len(body) != length:
            raise ValueError(f"{os.fspath(path)}: truncated {kind!r} chunk")
        position += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{os.fspath(path)}: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace != 0:
        raise ValueError(
            f"{os.fspath(path)}: only 8-bit non-interlaced grey, RGB and RGBA are read "
            f"(depth {depth}, colour type {colour}, interlace {interlace})"
        )
    channels = _CHANNELS[colour]
    stride = width * channels
    raw = zlib.decompress(bytes(compressed))
    if len(raw) != height * (1 + stride):
        raise ValueError(f"{os.fspath(path)}: image data of {len(raw)} bytes, expected "
                         f"{height * (1 + stride)}")
    return _unfilter(raw, height, stride, channels).reshape(height, width, channels)
