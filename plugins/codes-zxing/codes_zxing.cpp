// Ocellus's code reader plugin: zxing-cpp behind the C interface of ocellus_codes.h, loaded by
// libocellus on first use (a program that never asks for codes loads no zxing-cpp). Nothing
// escapes as a C++ exception. Builds against zxing-cpp 1.4 (Debian 12) and 2.x (Debian 13), whose
// reader options were renamed.
#define ZX_USE_UTF8 1
#include "ocellus_codes.h"

#include <ZXing/ReadBarcode.h>
#if __has_include(<ZXing/Version.h>)
#include <ZXing/Version.h>  // 2.x (ZXVersion.h is deprecated there)
#else
#include <ZXing/ZXVersion.h>
#endif

#include <algorithm>
#include <cstring>
#include <utility>

namespace {

using ZXing::BarcodeFormat;
#if ZXING_VERSION_MAJOR >= 2
using Options = ZXing::ReaderOptions;
#else
using Options = ZXing::DecodeHints;
#endif

constexpr std::pair<int, BarcodeFormat> symbologies[] = {
    {OCELLUS_CODE_QR, BarcodeFormat::QRCode},
    {OCELLUS_CODE_MICRO_QR, BarcodeFormat::MicroQRCode},
    {OCELLUS_CODE_AZTEC, BarcodeFormat::Aztec},
    {OCELLUS_CODE_DATA_MATRIX, BarcodeFormat::DataMatrix},
    {OCELLUS_CODE_PDF417, BarcodeFormat::PDF417},
    {OCELLUS_CODE_EAN8, BarcodeFormat::EAN8},
    {OCELLUS_CODE_EAN13, BarcodeFormat::EAN13},
    {OCELLUS_CODE_UPCA, BarcodeFormat::UPCA},
    {OCELLUS_CODE_UPCE, BarcodeFormat::UPCE},
    {OCELLUS_CODE_CODE39, BarcodeFormat::Code39},
    {OCELLUS_CODE_CODE93, BarcodeFormat::Code93},
    {OCELLUS_CODE_CODE128, BarcodeFormat::Code128},
    {OCELLUS_CODE_ITF, BarcodeFormat::ITF},
    {OCELLUS_CODE_CODABAR, BarcodeFormat::Codabar},
};

ZXing::BarcodeFormats formatsOf(int wanted) {
    ZXing::BarcodeFormats formats;
    for (const auto &[bit, format] : symbologies)
        if (wanted & bit) formats |= format;
    return formats;
}

int symbologyOf(BarcodeFormat format) {
    for (const auto &[bit, known] : symbologies)
        if (known == format) return bit;
    return 0;
}

}  // namespace

extern "C" {

int ocellus_codes_interface_version(void) { return OCELLUS_CODES_INTERFACE_VERSION; }

int ocellus_codes_read(const uint8_t *grey, int width, int height, int stride, int wanted, ocellus_code *found,
                       int capacity) {
    if (!grey || width <= 0 || height <= 0 || stride < width || capacity < 0 || formatsOf(wanted).empty()) return -1;
    try {
        const ZXing::ImageView picture(grey, width, height, ZXing::ImageFormat::Lum, stride);
        const auto options = Options().setFormats(formatsOf(wanted)).setTryHarder(true).setTryRotate(true);
        int count = 0;
        for (const auto &result : ZXing::ReadBarcodes(picture, options)) {
            if (count == capacity) break;
            if (!result.isValid()) continue;
            ocellus_code &code = found[count++];
            code.symbology = symbologyOf(result.format());
            int left = width, top = height, right = 0, bottom = 0;
            for (const auto &corner : result.position()) {
                left = std::min(left, corner.x), top = std::min(top, corner.y);
                right = std::max(right, corner.x), bottom = std::max(bottom, corner.y);
            }
            code.x = static_cast<float>(left), code.y = static_cast<float>(top);
            code.width = static_cast<float>(std::max(0, right - left)), code.height = static_cast<float>(std::max(0, bottom - top));
            const auto &bytes = result.bytes();
            const std::string text = result.text();
            code.length = static_cast<int>(std::min(bytes.size(), sizeof code.bytes));
            std::memcpy(code.bytes, bytes.data(), static_cast<size_t>(code.length));
            const size_t textLength = std::min(text.size(), sizeof code.text - 1);
            std::memcpy(code.text, text.data(), textLength);
            code.text[textLength] = '\0';
            code.truncated = bytes.size() > sizeof code.bytes || text.size() > sizeof code.text - 1;
        }
        return count;
    } catch (const std::exception &) {
        return -1;
    }
}

}  // extern "C"
