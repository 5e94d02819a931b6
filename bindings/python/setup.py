"""The licence, declared in the form the setuptools building the package reads (pyproject.toml
says why): PEP 639's SPDX expression from setuptools 77 on, the older table form before."""
import setuptools

if int(setuptools.__version__.split(".")[0]) >= 77:
    setuptools.setup(license_expression="MIT", license_files=["LICENSE"])
else:
    setuptools.setup(license="MIT")
