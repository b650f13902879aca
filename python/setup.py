"""Platform tag for the wheel; everything else is in pyproject.toml.

The package is pure Python over a C library (warp_mlir/_lib/libWarpCAPI.so,
loaded with ctypes), so the wheel works with any Python 3 but only on the
platform the library was built for: bdist_wheel tags it py3-none-<platform>
instead of py3-none-any. WARP_WHEEL_PLATFORM names the platform (the wheel
target sets it from the library's glibc needs, e.g. manylinux_2_36_x86_64);
without it, the build machine's platform tag is used.
"""
import os

from setuptools import Distribution, setup
from wheel.bdist_wheel import bdist_wheel


class BinaryDistribution(Distribution):
    """Holds a compiled library: installed as platform-specific."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", os.environ.get("WARP_WHEEL_PLATFORM", platform)


setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
