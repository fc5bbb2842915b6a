"""Reading highlight colours off a rendered page or a screenshot."""

from __future__ import annotations

from PIL import Image, ImageStat


def yellowness(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """Mean of red minus blue over a box: ~0 on a white or black page, ~95 under the amber highlight,
    negative under the blue of the other citations."""
    red, _, blue = (band.crop(box) for band in image.convert("RGB").split())
    return ImageStat.Stat(red).mean[0] - ImageStat.Stat(blue).mean[0]
