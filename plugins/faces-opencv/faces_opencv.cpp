// Ocellus's face detector plugin: OpenCV's objdetect behind the C interface of ocellus_faces.h,
// loaded by libocellus on first use (a program that never asks for faces loads no OpenCV).
// Two detectors: a cascade (Debian's opencv-data ships LBP and Haar ones) and YuNet, OpenCV's
// DNN face detector, when a model file is named. Nothing escapes as a C++ exception.
#include "ocellus_faces.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

struct ocellus_faces {
    cv::CascadeClassifier cascade;
    cv::Ptr<cv::FaceDetectorYN> yunet;
    // Reused from call to call: after the first picture of a size, detection allocates little.
    cv::Mat equalized, colour, yunetFaces;
    std::vector<cv::Rect> boxes;
    std::vector<int> hits;
};

namespace {

bool endsWith(const std::string &text, const char *suffix) {
    const std::string end(suffix);
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

void say(char *error, size_t size, const std::string &message) {
    if (error && size > 0) std::snprintf(error, size, "%s", message.c_str());
}

// A cascade reports how many overlapping windows agreed on a face, not a probability: more
// agreement, more confidence, saturating (8 windows, the least kept, give about 0.74).
float cascadeConfidence(int hits) { return static_cast<float>(1.0 - std::exp(-hits / 6.0)); }

int byArea(std::vector<ocellus_face> &faces, ocellus_face *found, int capacity) {
    std::sort(faces.begin(), faces.end(), [](const ocellus_face &a, const ocellus_face &b) {
        return a.width * a.height > b.width * b.height;
    });
    const int count = std::min(capacity, static_cast<int>(faces.size()));
    std::copy(faces.begin(), faces.begin() + count, found);
    return count;
}

}  // namespace

extern "C" {

int ocellus_faces_interface_version(void) { return OCELLUS_FACES_INTERFACE_VERSION; }

ocellus_faces *ocellus_faces_new(const char *model, char *error, size_t error_size) {
    if (!model) {
        say(error, error_size, "no model named");
        return nullptr;
    }
    try {
        auto *faces = new ocellus_faces();
        const std::string path(model);
        if (endsWith(path, ".onnx")) {
            faces->yunet = cv::FaceDetectorYN::create(path, "", cv::Size(320, 320), 0.6f, 0.3f, 50);
            if (faces->yunet.empty()) {
                say(error, error_size, "OpenCV could not load the YuNet model " + path);
                delete faces;
                return nullptr;
            }
        } else if (!faces->cascade.load(path)) {
            say(error, error_size, "OpenCV could not load the cascade " + path);
            delete faces;
            return nullptr;
        }
        return faces;
    } catch (const std::exception &failure) {
        say(error, error_size, std::string("OpenCV: ") + failure.what());
        return nullptr;
    }
}

void ocellus_faces_free(ocellus_faces *faces) { delete faces; }

int ocellus_faces_detect(ocellus_faces *faces, const uint8_t *grey, int width, int height, int stride,
                         int min_size, ocellus_face *found, int capacity) {
    if (!faces || !grey || width <= 0 || height <= 0 || stride < width || capacity < 0) return -1;
    try {
        const cv::Mat picture(height, width, CV_8UC1, const_cast<uint8_t *>(grey), static_cast<size_t>(stride));
        std::vector<ocellus_face> seen;
        if (!faces->yunet.empty()) {
            cv::cvtColor(picture, faces->colour, cv::COLOR_GRAY2BGR);
            faces->yunet->setInputSize(picture.size());
            faces->yunet->detect(faces->colour, faces->yunetFaces);
            // One row per face: x, y, width, height, five landmarks, score.
            for (int row = 0; row < faces->yunetFaces.rows; row++) {
                const float *face = faces->yunetFaces.ptr<float>(row);
                if (face[2] < min_size && face[3] < min_size) continue;
                seen.push_back({face[0], face[1], face[2], face[3], std::min(1.0f, std::max(0.0f, face[14]))});
            }
        } else {
            // Equalised first: a backlit face is dark against a bright background.
            cv::equalizeHist(picture, faces->equalized);
            // Steps of 20% and 3 agreeing windows: opencv-data's Haar frontal-face cascade (alt2) then
            // finds faces of every size in front of a webcam, in photographs, and none in cats or
            // coffee; the LBP cascade with 8 windows missed a third of them (a face 40% of the
            // picture high among them), and with fewer it found faces in textures.
            faces->cascade.detectMultiScale(faces->equalized, faces->boxes, faces->hits, 1.2, 3, 0,
                                            cv::Size(min_size, min_size));
            for (size_t index = 0; index < faces->boxes.size(); index++) {
                const cv::Rect &box = faces->boxes[index];
                seen.push_back({static_cast<float>(box.x), static_cast<float>(box.y), static_cast<float>(box.width),
                                static_cast<float>(box.height), cascadeConfidence(faces->hits[index])});
            }
        }
        return byArea(seen, found, capacity);
    } catch (const std::exception &) {
        return -1;
    }
}

}  // extern "C"
