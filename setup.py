"""The build step pyproject.toml cannot say: compiler flags chosen by compiler.

The float dealer kernel (analyzer/engine/_dealer.c) must add and multiply in the
order written, with no fused multiply-adds and no fast-math, so that its bits are
the same on every machine (and the same as the numba fallback's).  GCC and Clang
spell that ``-ffp-contract=off -fno-fast-math``; MSVC ``/fp:strict``.  Everything
else (the extension, optional, on the stable ABI; the abi3 wheel tag) is in
pyproject.toml.
"""

from setuptools import setup
from setuptools.command.build_ext import build_ext

STRICT_FP = {
    "msvc": ["/O2", "/fp:strict"],
}
GCC_CLANG = ["-O2", "-ffp-contract=off", "-fno-fast-math"]


class StrictFloatBuildExt(build_ext):
    """build_ext with the strict floating-point flags of the compiler in use."""

    def build_extensions(self) -> None:
        flags = STRICT_FP.get(self.compiler.compiler_type, GCC_CLANG)
        for ext in self.extensions:
            ext.extra_compile_args = [*flags, *(ext.extra_compile_args or [])]
        super().build_extensions()


setup(cmdclass={"build_ext": StrictFloatBuildExt})
