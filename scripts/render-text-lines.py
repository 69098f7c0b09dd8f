#!/usr/bin/env python3
"""Renders lines of text, black on white, one under another, with a Debian
font (DejaVu Sans, fonts-dejavu-core), as the input of the `glpool ocr`
test:

    /usr/bin/python3 scripts/render-text-lines.py OUT.png [--upside-down] [--rotate DEG] LINE...

--upside-down turns the last line by 180 degrees in place (the direction
classifier's case); --rotate turns the whole page by DEG degrees
counter-clockwise, growing it to fit (tilted text, as photographed pages
have it). Lines are 40 pixels tall with generous margins, as a
scan of a printed page would have them.
"""
import os
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def render(text, font, margin=24):
    left, top, right, bottom = font.getbbox(text)
    image = Image.new("RGB", (right - left + 2 * margin, bottom - top + 2 * margin), "white")
    ImageDraw.Draw(image).text((margin - left, margin - top), text, font=font, fill="black")
    return image


def main():
    args = sys.argv[1:]
    upside_down = "--upside-down" in args
    args = [a for a in args if a != "--upside-down"]
    rotate = 0.0
    if "--rotate" in args:
        at = args.index("--rotate")
        rotate = float(args[at + 1])
        del args[at:at + 2]
    if len(args) < 2:
        raise SystemExit(__doc__)
    out, lines = args[0], args[1:]
    if not os.path.isfile(FONT):
        raise SystemExit(f"{FONT} is missing: install Debian's fonts-dejavu-core (scripts/install-deps.sh)")
    font = ImageFont.truetype(FONT, 40)
    images = [render(text, font) for text in lines]
    if upside_down:
        images[-1] = images[-1].rotate(180)
    page = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)), "white")
    y = 0
    for image in images:
        page.paste(image, (0, y))
        y += image.height
    if rotate:
        page = page.rotate(rotate, expand=True, fillcolor="white", resample=Image.BICUBIC)
    page.save(out)
    print(f"{out}: {page.width}x{page.height}, {len(lines)} lines")


if __name__ == "__main__":
    main()
