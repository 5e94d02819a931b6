# Ocellus build, install and test entry points. `make` builds the release
# library and CLI; `make install PREFIX=DIR` installs them; `make test` runs
# every suite against a private PipeWire test bed (scripts/testbed.sh).
PREFIX ?= /usr/local
# Where `install` puts things (DESTDIR is prepended to each; LIBDIR may be multiarch,
# e.g. /usr/lib/x86_64-linux-gnu).
LIBDIR ?= $(PREFIX)/lib
BINDIR ?= $(PREFIX)/bin
# Programs the CLI runs, not people: ocellus-virtual-camera. The CLI finds it as
# BINDIR/../libexec/ocellus/, so keep LIBEXECDIR beside BINDIR.
LIBEXECDIR ?= $(PREFIX)/libexec
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# Stripping is the packager's (dh_strip makes -dbgsym from unstripped files):
# STRIP= or DEB_BUILD_OPTIONS=nostrip keeps the symbols in build/.
STRIP ?= strip
ifneq (,$(findstring nostrip,$(DEB_BUILD_OPTIONS)))
STRIP :=
endif
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
comma := ,
VERSION := $(shell sed -n 's/^\#define OCELLUS_VERSION_STRING "\(.*\)"/\1/p' include/ocellus.h)
RELEASE := .build/release
BUILD := build
LIB := $(BUILD)/lib/libocellus.so.0
CLI := $(BUILD)/bin/ocellus
# Voice isolation's engines for the suites, where scripts/fetch-voice-engines.sh cached them (the
# test command fetches them and requires them; a suite run alone uses them when there, else skips);
# what the environment already names wins.
$(foreach engine,$(shell scripts/fetch-voice-engines.sh --cached 2>/dev/null),\
  $(if $(filter undefined,$(origin $(firstword $(subst =, ,$(engine))))),$(eval export $(engine))))
VIRTUAL_CAMERA := $(BUILD)/libexec/ocellus/ocellus-virtual-camera
# Echo cancellation's plugin (C++ around webrtc-audio-processing), loaded on first use from
# LIBDIR/ocellus/ beside the library; the Swift suite, whose code is not in the library, is told.
# Built where webrtc-audio-processing is (ECHO_CANCELLATION=yes requires it, =no leaves it out):
# without it voice isolation runs and says that echo cancellation is missing, and why.
ECHO_PLUGIN := $(BUILD)/lib/ocellus/libocellus-echo-webrtc.so
# webrtc-audio-processing 1.x (Debian 13) is preferred to 0.3 (Debian 12) where both are.
WEBRTC_PACKAGE := $(firstword $(foreach package,webrtc-audio-processing-1 webrtc-audio-processing,\
  $(if $(shell pkg-config --exists $(package) && echo found),$(package))))
WEBRTC_MAJOR := $(if $(filter webrtc-audio-processing-1,$(WEBRTC_PACKAGE)),1,0)
ECHO_CANCELLATION ?= $(if $(WEBRTC_PACKAGE),yes,no)
CXX ?= c++
CXXFLAGS ?= -O2 -g
WEBRTC_CFLAGS = $(shell pkg-config --cflags $(WEBRTC_PACKAGE) | sed 's/-I/-isystem /g') -DOCELLUS_WEBRTC_APM_MAJOR=$(WEBRTC_MAJOR)
WEBRTC_LIBS = $(shell pkg-config --libs $(WEBRTC_PACKAGE))
# Metadata outputs' plugins (C++ around OpenCV's objdetect for faces and zxing-cpp for codes), loaded
# on first use from LIBDIR/ocellus/ like the echo plugin. FACES=yes / CODES=yes require their
# library's headers, =no leaves the plugin out: creating such an output then says what is missing.
FACES_PLUGIN := $(BUILD)/lib/ocellus/libocellus-faces-opencv.so
CODES_PLUGIN := $(BUILD)/lib/ocellus/libocellus-codes-zxing.so
# Debian ships opencv4.pc only with the whole of libopencv-dev; the modules' -dev packages suffice.
OPENCV_CFLAGS := $(or $(shell pkg-config --cflags opencv4 2>/dev/null | sed 's/-I/-isystem /g'),-isystem /usr/include/opencv4)
FACES ?= $(if $(wildcard /usr/include/opencv4/opencv2/objdetect.hpp),yes,$(if $(shell pkg-config --exists opencv4 && echo found),yes,no))
CODES ?= $(if $(shell pkg-config --exists zxing && echo found),yes,no)
# $(call build-plugin,OUTPUT,SOURCE,CFLAGS,LIBS): one C++ plugin, hardened as the library.
define build-plugin
	mkdir -p $(dir $(1))
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -std=c++17 -fPIC -shared -Wall -Wextra -Werror $(3) $(2) \
		-o $(1) $(LDFLAGS) -Wl,-z,relro,-z,now,--no-undefined,--as-needed $(4)
	$(if $(STRIP),$(STRIP) --strip-unneeded $(1))
endef
CC ?= cc
# The CLI is C, built like any program that uses the library (dpkg-buildflags' CFLAGS/LDFLAGS apply).
CFLAGS ?= -O2 -g
CLI_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Iinclude
# The library's directory relative to the CLI, so build/ and any PREFIX work without
# LD_LIBRARY_PATH; a distribution that installs into the loader's path sets CLI_RPATH=.
CLI_RPATH ?= $$ORIGIN/../lib
TESTBED := scripts/testbed.sh
PYTHON ?= /usr/bin/python3
BENCH_RUNS ?= 30

.PHONY: all format build install uninstall man dist test test-swift test-c test-abi test-dist test-badinput test-python test-portal test-rust mirrors symbol-order test-examples test-debian test-ffmpeg test-vivid test-gadget test-fuzz test-tsan test-sanitizers fuzz fuzz-build soak bench clean

all: build

# Hardening as dpkg-buildflags' for C (bind now, read-only relocations; the C shims are fortified
# in Package.swift), and no RUNPATH: the library and the virtual camera load nothing from beside
# themselves.
# A target importing one it does not depend on fails to build: SwiftPM alone lets a module built
# earlier be imported from anywhere, which would let a backend reach up into OcellusCapture.
SWIFT_LAYERS := --explicit-target-dependency-import-check error
SWIFT_HARDENING := $(SWIFT_LAYERS) --disable-local-rpath -Xlinker -z -Xlinker now -Xlinker -z -Xlinker relro

# The Swift runtime is linked statically into the library and the virtual camera
# (Package.swift), so they run without the toolchain; the CLI links libocellus.so.0
# alone. Stripping drops debug info and local symbols.
build:
	$(SWIFT) build -c release --product ocellus $(SWIFT_HARDENING)
	$(SWIFT) build -c release --product ocellus-virtual-camera $(SWIFT_HARDENING)
	mkdir -p $(BUILD)/lib $(BUILD)/bin $(BUILD)/libexec/ocellus $(BUILD)/include $(BUILD)/lib/pkgconfig
	$(if $(STRIP),$(STRIP) --strip-unneeded -o $(LIB) $(RELEASE)/libocellus.so,cp $(RELEASE)/libocellus.so $(LIB))
	ln -sf libocellus.so.0 $(BUILD)/lib/libocellus.so
	mkdir -p $(BUILD)/cli
	awk -f scripts/command-options.awk cli/manual.txt > $(BUILD)/cli/command_options.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CLI_CFLAGS) -I$(BUILD)/cli cli/*.c -o $(CLI) $(LDFLAGS) -L$(BUILD)/lib -locellus -lpng -lm -lpthread \
		$(if $(CLI_RPATH),-Wl$(comma)-rpath$(comma)'$(CLI_RPATH)')
	$(if $(STRIP),$(STRIP) $(CLI))
	$(if $(STRIP),$(STRIP) -o $(VIRTUAL_CAMERA) $(RELEASE)/ocellus-virtual-camera,cp $(RELEASE)/ocellus-virtual-camera $(VIRTUAL_CAMERA))
ifeq ($(ECHO_CANCELLATION),yes)
	$(if $(WEBRTC_PACKAGE),,pkg-config --print-errors --exists webrtc-audio-processing-1 webrtc-audio-processing)
	$(call build-plugin,$(ECHO_PLUGIN),plugins/echo-webrtc/echo_webrtc.cpp,$(WEBRTC_CFLAGS),$(WEBRTC_LIBS))
else
	rm -f $(ECHO_PLUGIN)
	@echo "ocellus: building without echo cancellation (no webrtc-audio-processing: install libwebrtc-audio-processing-dev)"
endif
ifeq ($(FACES),yes)
	$(call build-plugin,$(FACES_PLUGIN),plugins/faces-opencv/faces_opencv.cpp,$(OPENCV_CFLAGS),-lopencv_objdetect -lopencv_imgproc -lopencv_core)
else
	rm -f $(FACES_PLUGIN)
	@echo "ocellus: building without faces (no OpenCV objdetect: install libopencv-objdetect-dev)"
endif
ifeq ($(CODES),yes)
	$(call build-plugin,$(CODES_PLUGIN),plugins/codes-zxing/codes_zxing.cpp,$(shell pkg-config --cflags zxing),$(shell pkg-config --libs zxing))
else
	rm -f $(CODES_PLUGIN)
	@echo "ocellus: building without codes (no zxing-cpp: install libzxing-dev)"
endif
	cp include/ocellus.h $(BUILD)/include/
	sed -e 's|@LIBDIR@|$(abspath $(BUILD))/lib|' -e 's|@INCLUDEDIR@|$(abspath $(BUILD))/include|' -e 's|@PREFIX@|$(abspath $(BUILD))|' \
		-e 's|@VERSION@|$(VERSION)|' pkgconfig/ocellus.pc.in > $(BUILD)/lib/pkgconfig/ocellus.pc

# Man pages and bash/zsh completions for `ocellus` and each of its commands, from the CLI's
# own usage text (scripts/man-pages.py with cli/manual.txt, scripts/completions.py), so they
# cannot drift from it.
man: build
	LD_LIBRARY_PATH=$(abspath $(BUILD)/lib) scripts/man-pages.py $(CLI) cli/manual.txt $(BUILD)/man/man1 $(VERSION)
	LD_LIBRARY_PATH=$(abspath $(BUILD)/lib) scripts/completions.py $(CLI) include/ocellus.h $(BUILD)/completions

# A shared library is 0644 (not executable); nothing is stripped here (see STRIP).
install: build man
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(LIB) $(DESTDIR)$(LIBDIR)/libocellus.so.0
	ln -sf libocellus.so.0 $(DESTDIR)$(LIBDIR)/libocellus.so
	$(if $(filter yes,$(ECHO_CANCELLATION)),install -D -m 0644 $(ECHO_PLUGIN) $(DESTDIR)$(LIBDIR)/ocellus/libocellus-echo-webrtc.so)
	$(if $(filter yes,$(FACES)),install -D -m 0644 $(FACES_PLUGIN) $(DESTDIR)$(LIBDIR)/ocellus/libocellus-faces-opencv.so)
	$(if $(filter yes,$(CODES)),install -D -m 0644 $(CODES_PLUGIN) $(DESTDIR)$(LIBDIR)/ocellus/libocellus-codes-zxing.so)
	install -m 0644 include/ocellus.h $(DESTDIR)$(INCLUDEDIR)/ocellus.h
	install -m 0755 $(CLI) $(DESTDIR)$(BINDIR)/ocellus
	install -D -m 0755 $(VIRTUAL_CAMERA) $(DESTDIR)$(LIBEXECDIR)/ocellus/ocellus-virtual-camera
	install -m 0644 $(BUILD)/man/man1/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -D -m 0644 $(BUILD)/completions/bash/ocellus $(DESTDIR)$(DATADIR)/bash-completion/completions/ocellus
	install -D -m 0644 $(BUILD)/completions/zsh/_ocellus $(DESTDIR)$(DATADIR)/zsh/vendor-completions/_ocellus
	sed -e 's|@LIBDIR@|$(abspath $(LIBDIR))|' -e 's|@INCLUDEDIR@|$(abspath $(INCLUDEDIR))|' -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@VERSION@|$(VERSION)|' \
		pkgconfig/ocellus.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/ocellus.pc
	$(if $(DESTDIR),,@$(LOADER_CACHE))

# Installed for real (no DESTDIR): the loader's cache learns the library, or the installer is told
# what a plain `-locellus` program needs (a packager's DESTDIR install leaves it to the package).
LOADER_CACHE = case "$(abspath $(LIBDIR))" in /usr/lib*|/usr/local/lib*|/lib*) \
		if [ "$$(id -u)" = 0 ]; then ldconfig; else echo "make install: run ldconfig as root so that programs find libocellus.so.0"; fi ;; \
	*) echo "make install: $(abspath $(LIBDIR)) is not in the loader's path: programs need LD_LIBRARY_PATH=$(abspath $(LIBDIR)) or -Wl,-rpath,$(abspath $(LIBDIR))" ;; esac

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libocellus.so.0 $(DESTDIR)$(LIBDIR)/libocellus.so $(DESTDIR)$(INCLUDEDIR)/ocellus.h \
		$(DESTDIR)$(BINDIR)/ocellus $(DESTDIR)$(PKGCONFIGDIR)/ocellus.pc $(DESTDIR)$(MANDIR)/man1/ocellus.1 \
		$(DESTDIR)$(MANDIR)/man1/ocellus-*.1 $(DESTDIR)$(DATADIR)/bash-completion/completions/ocellus \
		$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_ocellus $(DESTDIR)$(LIBEXECDIR)/ocellus/ocellus-virtual-camera \
		$(DESTDIR)$(LIBDIR)/ocellus/libocellus-echo-webrtc.so $(DESTDIR)$(LIBDIR)/ocellus/libocellus-faces-opencv.so \
		$(DESTDIR)$(LIBDIR)/ocellus/libocellus-codes-zxing.so
	-rmdir $(DESTDIR)$(LIBEXECDIR)/ocellus $(DESTDIR)$(LIBDIR)/ocellus

# Each suite runs inside its own private test bed; the test bed's CLI is the stripped one.
test: test-swift test-c test-badinput test-python test-rust test-examples test-vivid test-gadget

# The Swift sources laid out as .swift-format says (`make format` lays them out), as rustfmt and
# the header's checks hold the Rust and C.
test-swift: build
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	rm -f $(BUILD)/swift-tests*.xml
	OCELLUS_CLI=$(abspath $(CLI)) OCELLUS_ECHO_CANCELLER_LIB=$(abspath $(ECHO_PLUGIN)) \
		OCELLUS_FACES_LIB=$(abspath $(FACES_PLUGIN)) OCELLUS_CODES_LIB=$(abspath $(CODES_PLUGIN)) $(TESTBED) run -- $(SWIFT) test $(SWIFT_LAYERS) --xunit-output $(abspath $(BUILD))/swift-tests.xml; \
	status=$$?; $(PYTHON) scripts/xunit-summary.py $(BUILD)/swift-tests.xml $(BUILD)/swift-tests-swift-testing.xml && exit $$status

# C_SECTION=capture (a file of Tests/c/sections/) runs that section's tests alone.
test-c: build
	export SWIFT="$(SWIFT)"; \
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run -- Tests/c/run.sh $(C_SECTION)

# The header's C ABI against the last release's (abi/ocellus.abi, abidiff), and the release
# tarball with every place that states the version (docs/releasing.md).
test-abi: build
	scripts/abi-check.sh $(BUILD)

test-dist:
	scripts/dist.sh $(BUILD)/dist --check

# The release tarball, build/dist/ocellus-VERSION.tar.gz, of the committed tree.
dist:
	scripts/dist.sh $(BUILD)/dist

# Every function of the header with bad input and from inside its callbacks (Tests/badinput).
test-badinput: build
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run -- Tests/badinput/run.sh $(abspath $(BUILD))

test-python: build
	OCELLUS_CLI=$(abspath $(CLI)) OCELLUS_LIBRARY=$(abspath $(LIB)) $(TESTBED) run -- \
		$(PYTHON) -m pytest -q --durations=8 -p no:cacheprovider bindings/python/tests

# Camera access through the real xdg-desktop-portal (scripts/portal-bed.sh), apps sandboxed with bwrap.
test-portal: build
	OCELLUS_CLI=$(abspath $(CLI)) OCELLUS_LIBRARY=$(abspath $(LIB)) scripts/portal-bed.sh run -- \
		$(PYTHON) -m pytest -q -p no:cacheprovider Tests/portal

# The crates' docs are part of the contract: every public item documented (ocellus-sys's
# from the header, which must document every declaration), rustdoc without a warning; rustfmt
# clean (bindings/rust/rustfmt.toml), both crates packageable, the tests run in parallel. Packaging
# unpacks ocellus-sys into CARGO_HOME's registry under its version, and an unpacked (or built)
# registry crate is never refreshed: a private CARGO_HOME and target directory each run, or
# ocellus is checked against a stale ocellus-sys.
test-rust: build
	DOCS_RS=1 RUSTDOCFLAGS="-D warnings" cargo doc --offline --no-deps --manifest-path bindings/rust/Cargo.toml
	cargo fmt --all --check --manifest-path=bindings/rust/Cargo.toml
	rm -rf $(BUILD)/cargo-package-home $(BUILD)/cargo-package-target
	CARGO_HOME=$(abspath $(BUILD))/cargo-package-home CARGO_TARGET_DIR=$(abspath $(BUILD))/cargo-package-target OCELLUS_LIB_DIR=$(abspath $(BUILD)/lib) \
		cargo package --manifest-path bindings/rust/Cargo.toml --workspace --offline --allow-dirty --quiet
	OCELLUS_CLI=$(abspath $(CLI)) OCELLUS_LIB_DIR=$(abspath $(BUILD)/lib) LD_LIBRARY_PATH=$(abspath $(BUILD)/lib) \
		$(TESTBED) run -- cargo test --offline --manifest-path bindings/rust/Cargo.toml

# Regenerates the linker's ordering of startup code (Sources/OcellusCABI/startup.order) from a
# callgrind run on the test bed; rebuild and compare `make bench`'s resident memory after.
symbol-order: build
	scripts/symbol-order.sh

# Copies the header's doc comments onto ocellus-sys items that have none (after the header grows).
format:
	$(SWIFT) format format --in-place --recursive Sources Tests Package.swift

# The header's mechanical mirrors (exports.map, the symbols file, _native.py, ocellus-sys), made again.
mirrors:
	python3 scripts/mirrors.py

# The raw V4L2 backend against the kernel's vivid driver in a QEMU guest (scripts/vivid-vm.sh).
# examples/ built and run as users would (C with pkg-config, Python, Rust), on the test bed.
test-examples: build
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run -- Tests/examples/run.sh

# The FFmpeg code built against FFmpeg 5.1's headers and Debian 13's 7.1 (scripts/ffmpeg-headers-check.sh).
test-ffmpeg:
	SWIFT="$(SWIFT)" scripts/ffmpeg-headers-check.sh

# The Debian packages built (lintian-clean) and installed with apt into a debootstrapped Debian 12.
test-debian: build
	scripts/debian-packages.sh $(BUILD)/debian
	scripts/clean-system-test.sh $(BUILD)/debian

test-vivid: build
	$(SWIFT) build --build-tests $(SWIFT_LAYERS)
	OCELLUS_LIB_DIR=$(abspath $(BUILD)/lib) cargo test --manifest-path bindings/rust/Cargo.toml --no-run -q 2>/dev/null
	Tests/vivid/run.sh

# Real uvcvideo and snd-usb-audio on USB gadget cameras in the same guest (testbed/usb-gadget/):
# the patched dummy_hcd and usb_f_uvc built from Debian's kernel source, the gadget's userspace half.
GADGET_PROGRAM := $(BUILD)/testbed/uvc-gadget
$(GADGET_PROGRAM): testbed/usb-gadget/uvc-gadget.c testbed/usb-gadget/scene.c testbed/usb-gadget/scene.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -o $@ $(filter %.c,$^) -lturbojpeg -lm

# The guest gets 14 minutes (the suite's own limit in scripts/test.sh is 15): emulated, the
# gadget tests take 6 to 10 minutes with the machine's load.
test-gadget: build $(GADGET_PROGRAM)
	scripts/build-test-modules.sh $(BUILD)/vm
	VM_TIMEOUT=$${VM_TIMEOUT:-840} Tests/gadget/run.sh

# libFuzzer targets (Sources/OcellusFuzz) built with AddressSanitizer: `make fuzz` runs each
# for FUZZ_SECONDS (600); `make test-fuzz` is the test suite's smoke run (10 s each).
FUZZ_BUILD := .build/fuzz
FUZZ_SECONDS ?= 600
FUZZER_NO_MAIN := $(firstword $(wildcard $(dir $(realpath $(SWIFT)))../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a))
# libFuzzer's instrumentation and AddressSanitizer; the driver comes without libFuzzer's main
# (the target's own entry point starts it).
FUZZ_FLAGS := -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link,address

fuzz-build:
	$(SWIFT) build --build-path $(FUZZ_BUILD) --product ocellus-fuzz $(FUZZ_FLAGS)

fuzz: fuzz-build
	Tests/fuzz/run.sh $(FUZZ_BUILD)/debug/ocellus-fuzz $(FUZZ_SECONDS)

test-fuzz: fuzz-build
	Tests/fuzz/run.sh $(FUZZ_BUILD)/debug/ocellus-fuzz 10

# ThreadSanitizer, in the test command: the Swift suite (unit tests and the PipeWire tests on the
# test bed), the C suite's abi_test and a stress driving the C ABI from several threads at once
# (Tests/sanitizers/stress.c), against the library and tests built with -sanitize=thread in one
# build folder. A race ends the run. The C programs link the toolchain's libdispatch and
# BlocksRuntime, which TSan's runtime expects; plugins are the normal build's (C++, not
# instrumented).
TSAN_BUILD := .build/tsan
SWIFT_BIN := $(dir $(realpath $(SWIFT)))
TSAN_CC = $(SWIFT_BIN)clang -std=c99 -fsanitize=thread -g -O1 -pthread -Iinclude -L$(TSAN_BUILD)/debug -locellus \
	-L$(SWIFT_BIN)../lib/swift/linux -ldispatch -lBlocksRuntime \
	-Wl,-rpath,$(abspath $(TSAN_BUILD))/debug -Wl,-rpath,$(realpath $(SWIFT_BIN)../lib/swift/linux)
TSAN_RUN = OCELLUS_CLI=$(abspath $(CLI)) OCELLUS_ECHO_CANCELLER_LIB=$(abspath $(ECHO_PLUGIN)) OCELLUS_FACES_LIB=$(abspath $(FACES_PLUGIN)) \
	OCELLUS_CODES_LIB=$(abspath $(CODES_PLUGIN)) OCELLUS_TESTBED_SCRIPT=$(abspath $(TESTBED)) $(TESTBED) run -- \
	env TSAN_OPTIONS="halt_on_error=1 suppressions=$(abspath Tests/sanitizers/tsan.supp)"
test-tsan: build
	$(SWIFT) build --build-path $(TSAN_BUILD) --sanitize=thread --build-tests
	$(SWIFT) build --build-path $(TSAN_BUILD) --sanitize=thread --product ocellus
	ln -sf libocellus.so $(TSAN_BUILD)/debug/libocellus.so.0
	$(TSAN_CC) Tests/sanitizers/stress.c -o $(TSAN_BUILD)/tsan-stress
	$(TSAN_CC) Tests/c/abi_test.c -o $(TSAN_BUILD)/tsan-abi-test
	$(TSAN_RUN) $(SWIFT) test --skip-build --build-path $(TSAN_BUILD) --sanitize=thread --xunit-output $(abspath $(BUILD))/tsan-tests.xml; \
	status=$$?; $(PYTHON) scripts/xunit-summary.py $(BUILD)/tsan-tests.xml $(BUILD)/tsan-tests-swift-testing.xml && [ $$status = 0 ]
	$(TSAN_RUN) $(TSAN_BUILD)/tsan-abi-test
	$(TSAN_RUN) $(TSAN_BUILD)/tsan-stress

# The Swift suites under AddressSanitizer (LeakSanitizer included; XCTest's own objects are
# suppressed). Not part of `make test`: one more full build; docs/design/hardening.md says what it
# covers and what it cannot.
test-sanitizers: build
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run -- env LSAN_OPTIONS=suppressions=$(abspath Tests/sanitizers/lsan.supp) \
		$(SWIFT) test --build-path .build/asan --sanitize=address

# Unplug/replug, SIGKILL mid-recording and daemon kills, many times, with fds, threads and
# RSS before and after (Tests/soak/soak.py; CYCLES, KILLS, DAEMONS set the counts). Not in CI.
soak: build
	OCELLUS_CLI=$(abspath $(CLI)) OCELLUS_LIBRARY=$(abspath $(LIB)) $(TESTBED) run -- $(PYTHON) Tests/soak/soak.py

bench: build
	$(SWIFT) build -c release --product ocellus-bench
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run --cameras 2 -- $(RELEASE)/ocellus-bench $(BENCH_RUNS)
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run --cameras 0 --mics 0 -- bench/capture.sh
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run --cameras 0 --mics 0 -- bench/voice.sh
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run --cameras 0 --mics 0 -- bench/metadata.sh
	OCELLUS_CLI=$(abspath $(CLI)) $(TESTBED) run --cameras 2 -- bench/footprint.sh

clean:
	rm -rf .build $(BUILD) bindings/rust/target
