#!/usr/bin/env python3
"""Makes exports/zip/whatsapp-with-media.zip: a WhatsApp iOS "Export chat" archive (`_chat.txt`
beside the files it attaches, as the app zips them) whose pictures are real image files.

JPEG, WebP and PNG are encoded by headless Chromium (a canvas's toDataURL, the browser's own
libjpeg-turbo, libwebp and PNG encoders); the GIF is written here (LZW with a clear code every
few codes, which every decoder reads). One JPEG gets an EXIF APP1 segment with orientation 6
(rotated 90 degrees, as phones write portrait photos), so its displayed size is its stored size
turned. Two files only claim to be pictures: a text file named .jpg and a PNG's name on a file
of zeros. Info-ZIP `zip` makes the archive, with pinned timestamps.

    python3 Corpora/tools/make_media_fixture.py   (run from the repository root)
"""
import base64, os, re, shutil, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "exports", "zip", "whatsapp-with-media.zip")
CHROMIUM = os.environ.get("CHROMIUM", "chromium")

PAGE = """<!DOCTYPE html><html><body><script>
function draw(w, h, hue) {
  const c = document.createElement('canvas'); c.width = w; c.height = h;
  const g = c.getContext('2d');
  const grad = g.createLinearGradient(0, 0, w, h);
  grad.addColorStop(0, 'hsl(' + hue + ',80%,55%)'); grad.addColorStop(1, 'hsl(' + (hue + 120) + ',70%,35%)');
  g.fillStyle = grad; g.fillRect(0, 0, w, h);
  g.fillStyle = '#fff'; g.beginPath(); g.arc(w / 3, h / 2, Math.min(w, h) / 4, 0, 6.3); g.fill();
  return c;
}
const out = [
  ['jpeg', draw(160, 120, 20).toDataURL('image/jpeg', 0.8)],
  ['portrait', draw(120, 90, 200).toDataURL('image/jpeg', 0.8)],
  ['webp', draw(100, 50, 280).toDataURL('image/webp', 0.8)],
  ['png', draw(48, 64, 120).toDataURL('image/png')],
];
document.body.textContent = out.map(p => p[0] + ' ' + p[1]).join('\\n');
</script></body></html>"""


def chromium_images():
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "encode.html")
        with open(page, "w") as f:
            f.write(PAGE)
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://" + page],
                             capture_output=True, text=True, check=True).stdout
    images = {}
    for name, kind, data in re.findall(r"(\w+) data:image/(\w+);base64,([A-Za-z0-9+/=]+)", dom):
        images[name] = base64.b64decode(data)
    assert set(images) == {"jpeg", "portrait", "webp", "png"}, images.keys()
    return images


def with_orientation(jpeg, orientation):
    """The JPEG with an APP1 Exif segment (big-endian TIFF, one IFD entry: 0x0112) after SOI."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def gif(width, height):
    """A GIF89a of two colours in stripes: 8-bit LZW codes, literals only, cleared every 250."""
    header = b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF0, 0, 0)
    palette = b"\x25\x8c\xd6" + b"\xf5\xc2\x42"  # 2-entry global table (size bits 0 -> 2 colours)
    image = b"," + struct.pack("<HHHHB", 0, 0, width, height, 0)
    minimum = 2  # LZW minimum code size (at least 2): codes 0-3 literal, 4 clear, 5 end
    clear, end, size = 4, 5, 3
    codes = []
    pixels = [((x // 4 + y // 4) % 2) for y in range(height) for x in range(width)]
    count = 0
    codes.append(clear)
    for p in pixels:
        codes.append(p)
        count += 1
        if count == 2:  # before the table would grow past 3-bit codes
            codes.append(clear)
            count = 0
    codes.append(end)
    bits, nbits, data = 0, 0, bytearray()
    for code in codes:
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            data.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        data.append(bits & 0xFF)
    blocks = b"".join(bytes([len(data[i:i + 255])]) + bytes(data[i:i + 255]) for i in range(0, len(data), 255))
    return header + palette + image + bytes([minimum]) + blocks + b"\x00;"


CHAT = """[01/03/2024, 10:00:00] Ana: Photos from the weekend
[01/03/2024, 10:00:05] Ana: \u200e<attached: 00000001-PHOTO-2024-03-01-10-00-05.jpg>
[01/03/2024, 10:00:06] Ana: The view \u200e<attached: 00000002-PHOTO-2024-03-01-10-00-06.jpg>
[01/03/2024, 10:01:00] Ben: \u200e<attached: 00000003-PHOTO-2024-03-01-10-01-00.webp>
[01/03/2024, 10:01:30] Ben: \u200e<attached: 00000004-PHOTO-2024-03-01-10-01-30.png>
[01/03/2024, 10:02:00] Ana: \u200e<attached: 00000005-GIF-2024-03-01-10-02-00.gif>
[01/03/2024, 10:03:00] Ben: \u200e<attached: 00000006-PHOTO-2024-03-01-10-03-00.jpg>
[01/03/2024, 10:03:30] Ben: \u200e<attached: 00000007-PHOTO-2024-03-01-10-03-30.png>
[01/03/2024, 10:04:00] Ana: \u200e<attached: 00000008-PHOTO-2024-03-01-10-04-00.jpg>
[01/03/2024, 10:05:00] Ana: Nice ones!
"""


def main():
    images = chromium_images()
    files = {
        "00000001-PHOTO-2024-03-01-10-00-05.jpg": images["jpeg"],
        "00000002-PHOTO-2024-03-01-10-00-06.jpg": with_orientation(images["portrait"], 6),
        "00000003-PHOTO-2024-03-01-10-01-00.webp": images["webp"],
        "00000004-PHOTO-2024-03-01-10-01-30.png": images["png"],
        "00000005-GIF-2024-03-01-10-02-00.gif": gif(40, 24),
        "00000006-PHOTO-2024-03-01-10-03-00.jpg": b"only a name that says JPEG\n",
        "00000007-PHOTO-2024-03-01-10-03-30.png": bytes(64),
        # 00000008 is named in the chat but not in the archive.
    }
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "_chat.txt"), "w", encoding="utf-8") as f:
            f.write(CHAT)
        for name, data in files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        for name in ["_chat.txt"] + sorted(files):
            os.utime(os.path.join(tmp, name), (1709287200, 1709287200))
        if os.path.exists(OUT):
            os.remove(OUT)
        subprocess.run(["zip", "-X", "-q", OUT, "_chat.txt"] + sorted(files), cwd=tmp, check=True)
    print(OUT, os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
