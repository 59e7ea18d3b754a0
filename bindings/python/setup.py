"""Marks the wheel as platform-specific: it carries libidgen.so.

The package itself is pure Python over ctypes, so one wheel serves every
Python 3 on the platform: the tag is py3-none-manylinux_2_NN_x86_64, where
2.NN is the newest glibc symbol version the library needs, read from the
library itself, so pip installs the wheel where it works and only there.
"""
import re
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel


class BinaryDistribution(Distribution):
    """Installs into platlib: the package carries a native library."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> tuple[str, str, str]:
        _, _, plat = super().get_tag()
        lib = Path(__file__).parent / "src" / "idgen" / "libidgen.so"
        if plat.startswith("linux_") and lib.exists():
            needed = {int(m) for m in re.findall(rb"GLIBC_2\.(\d+)", lib.read_bytes())}
            if needed:
                plat = f"manylinux_2_{max(needed)}_{plat[len('linux_'):]}"
        return "py3", "none", plat


setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
