"""A (fake) USB stick for the tests' exports: a root folder with the ``/proc/mounts`` and
``/sys/block/*/removable`` files that controller.export reads, and the stick's folder in it."""

from __future__ import annotations

from pathlib import Path


def fake_usb(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    (root / "proc").mkdir(parents=True)
    (root / "proc" / "mounts").write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n/dev/sda1 /media/usb vfat rw 0 0\n",
                                          encoding="utf-8")
    for disk, flag in (("mmcblk0", "0"), ("sda", "1")):
        (root / "sys" / "block" / disk).mkdir(parents=True)
        (root / "sys" / "block" / disk / "removable").write_text(flag, encoding="ascii")
    stick = root / "media" / "usb"
    stick.mkdir(parents=True)
    return root, stick
