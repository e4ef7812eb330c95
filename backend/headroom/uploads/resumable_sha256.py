"""A SHA-256 whose state survives between requests: each chunk of a resumable upload is
hashed as it arrives and the state (OpenSSL's SHA256_CTX, the same libcrypto hashlib uses)
is kept next to the chunks, so the completion has the whole file's digest without reading
the file again. hashlib cannot export its state, hence the low-level calls."""

import _hashlib
import ctypes
import functools

CTX_BYTES = 112  # sizeof(SHA256_CTX): h[8], Nl, Nh, data[16], num, md_len (32-bit each)


@functools.cache
def _libcrypto() -> ctypes.CDLL:
    lib = ctypes.CDLL(_hashlib.__file__)  # resolves the symbols of the libcrypto it links
    for name in ("SHA256_Init", "SHA256_Update", "SHA256_Final"):
        getattr(lib, name).restype = ctypes.c_int
    lib.SHA256_Update.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.SHA256_Final.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.SHA256_Init.argtypes = [ctypes.c_char_p]
    return lib


def initial() -> bytes:
    ctx = ctypes.create_string_buffer(CTX_BYTES)
    _libcrypto().SHA256_Init(ctx)
    return ctx.raw


def updated(state: bytes, data: bytes) -> bytes:
    ctx = ctypes.create_string_buffer(state, CTX_BYTES)
    _libcrypto().SHA256_Update(ctx, data, len(data))
    return ctx.raw


def hexdigest(state: bytes) -> str:
    ctx = ctypes.create_string_buffer(state, CTX_BYTES)
    digest = ctypes.create_string_buffer(32)
    _libcrypto().SHA256_Final(digest, ctx)
    return digest.raw.hex()
