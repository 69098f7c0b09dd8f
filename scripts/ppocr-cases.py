#!/usr/bin/env python3
"""Makes ONNX test cases for the PP-OCRv4 networks as shipped (det, rec and
the direction classifier cls, from the npm cache scripts/fetch-models.sh
fills), on a real input: a line of text rendered with a Debian font
(DejaVu Sans, fonts-dejavu-core), preprocessed as PaddleOCR's inference does;
the reference outputs come from ONNX Runtime.

    /usr/bin/python3 scripts/ppocr-cases.py [OUT_DIR]

OUT_DIR defaults to $GLPOOL_CACHE/ppocr-cases (~/.cache/glpool/ppocr-cases),
outside git. Writes OUT_DIR/{det,rec,cls}/ (model.onnx, a link to the cached
model, and test_data_set_0/) for `glpool test-onnx`, and the rendered line as
OUT_DIR/line.png; also OUT_DIR/det_page/, det on a 640 x 480 page of text
lines in several sizes (the fp16 mask test's input), and OUT_DIR/page.png. Preprocessing, as PaddleOCR's predict_det/rec/cls:
  det: sides rounded to multiples of 32 (at most 960), (x / 255 - mean) / std
       with ImageNet's mean and std, channels in the image's BGR order;
  rec: height 48, width 48 x aspect (at least 320, the rest zero), x / 127.5 - 1;
  cls: height 48, width 192 (the rest zero), x / 127.5 - 1.
"""
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "oracle"))
import onnx_case  # noqa: E402

ASSETS = os.path.join(onnx_case.NODE_MODULES, "@gutenye", "ocr-models", "assets")
MODELS = {"det": "ch_PP-OCRv4_det_infer.onnx", "rec": "ch_PP-OCRv4_rec_infer.onnx",
          "cls": "ch_ppocr_mobile_v2.0_cls_infer.onnx"}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TEXT = "glpool reads this line 2026"


def render_line(text, height=48, margin=16):
    """Black text on white, RGB; returns the image and the text's box."""
    if not os.path.isfile(FONT):
        raise SystemExit(f"{FONT} is missing: install Debian's fonts-dejavu-core (scripts/install-deps.sh)")
    font = ImageFont.truetype(FONT, height)
    left, top, right, bottom = font.getbbox(text)
    size = (right - left + 2 * margin, bottom - top + 2 * margin)
    image = Image.new("RGB", size, "white")
    ImageDraw.Draw(image).text((margin - left, margin - top), text, font=font, fill="black")
    return image, (margin // 2, margin // 2, size[0] - margin // 2, size[1] - margin // 2)


PAGE = [(34, "Real networks as shipped"), (22, "Shapes come from the data; opsets 18 to 21"),
        (18, "The memory planner shares a small pool of objects"), (28, "PP-OCRv4 det rec cls 2026"),
        (16, "fp16 keeps the answers: 99.9% of mask pixels agree"), (24, "glpool ocr draws the boxes"),
        (20, "0123456789 abcdefghij ABCDEFGHIJ"), (30, "Textures and buffers alike")]


def render_page(width=640, height=480):
    """Lines of text in several sizes on white, like a scanned page."""
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    y = 12
    for size, text in PAGE:
        font = ImageFont.truetype(FONT, size)
        draw.text((16 + size // 2, y), text, font=font, fill="black")
        y += int(size * 1.55)
    return image


def bgr_chw(image):
    return np.asarray(image, dtype=np.float32)[:, :, ::-1].transpose(2, 0, 1)


def det_input(image, limit=960):
    w, h = image.size
    ratio = min(1.0, limit / max(w, h))
    rh = max(int(round(h * ratio / 32) * 32), 32)
    rw = max(int(round(w * ratio / 32) * 32), 32)
    x = bgr_chw(image.resize((rw, rh), Image.BILINEAR)) / 255.0
    mean = np.array([0.485, 0.456, 0.406], np.float32).reshape(3, 1, 1)
    std = np.array([0.229, 0.224, 0.225], np.float32).reshape(3, 1, 1)
    return ((x - mean) / std)[None].astype(np.float32)


def line_input(crop, width, grow=False):
    w, h = crop.size
    resized_w = int(math.ceil(48 * w / h))
    if grow:
        width = max(width, resized_w)
    resized_w = min(resized_w, width)
    x = bgr_chw(crop.resize((resized_w, 48), Image.BILINEAR)) / 127.5 - 1.0
    out = np.zeros((1, 3, 48, width), np.float32)
    out[0, :, :, :resized_w] = x
    return out


def main():
    out_root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(onnx_case.CACHE, "ppocr-cases")
    for name in MODELS.values():
        if not os.path.isfile(os.path.join(ASSETS, name)):
            raise SystemExit(f"{os.path.join(ASSETS, name)} is missing: run `bash scripts/fetch-models.sh`")
    os.makedirs(out_root, exist_ok=True)
    image, box = render_line(TEXT)
    image.save(os.path.join(out_root, "line.png"))
    crop = image.crop(box)
    inputs = {"det": det_input(image), "rec": line_input(crop, 320, grow=True), "cls": line_input(crop, 192)}
    page = render_page()
    page.save(os.path.join(out_root, "page.png"))
    inputs["det_page"] = det_input(page)
    for key, model in list(MODELS.items()) + [("det_page", MODELS["det"])]:
        case_dir = os.path.join(out_root, key)
        link = os.path.join(case_dir, "model.onnx")
        os.makedirs(case_dir, exist_ok=True)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.join(ASSETS, model), link)
        outputs = onnx_case.write_case_for_model(case_dir, [("x", inputs[key])])
        shapes = ", ".join(f"{n} {list(a.shape)}" for n, a in outputs)
        print(f"{case_dir}: x {list(inputs[key].shape)} -> {shapes}")


if __name__ == "__main__":
    main()
