import CLibAV
import OcellusCore

#if canImport(Glibc)
import Glibc
#endif

/// One movie file written with libavformat: fragmented MP4 or MOV (an empty moov,
/// then a moof+mdat per key frame, at most a second apart, each flushed to disk)
/// so that a crash, SIGKILL or unplug leaves a file that plays up to the last
/// fragment. The capture angle goes into the track's display matrix, not into the
/// pixels. MJPEG and H.264 are written as they came (an H.264 movie starts at the
/// camera's first IDR picture, whose SPS and PPS the header needs); raw frames are
/// encoded to H.264 (libx264), or MPEG-4 part 2 where libavcodec has no libx264.
/// Not thread-safe: one writer thread calls it.
final class MovieWriter {
    struct Video {
        var pixelFormat: FourCC
        var width: UInt32
        var height: UInt32
        var frameRate: FrameRate
        /// Clockwise degrees that turn the pixels upright.
        var rotation: Int
        /// Compressed camera data decoded and encoded again (Center Stage frames it), not kept as it came.
        var reencodes = false
    }

    let path: String
    let video: Video
    /// The microphone's PCM, recorded as AAC; nil for a silent movie.
    let audio: AudioFormat?
    private(set) var videoCodecName = ""
    private(set) var framesWritten = 0
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var converter: FrameConverter?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var audioStream: UnsafeMutablePointer<AVStream>?
    private var audioEncoder: UnsafeMutablePointer<AVCodecContext>?
    private var audioFrame: UnsafeMutablePointer<AVFrame>?
    /// Interleaved samples waiting for a full encoder frame (1024 per channel for AAC).
    private var audioPending: [Float] = []
    /// The next audio frame's position in samples from the movie's start; nil until the first buffer.
    private var audioPosition: Int64?
    private(set) var audioSamplesWritten: Int64 = 0
    /// Sound lagging the picture by more than this is filled with silence, so that video
    /// fragments never wait for a microphone that delivers nothing (a crash then loses
    /// little more than the last fragment); the filled stretch ends `silenceMargin` behind
    /// the picture. Real microphones deliver every 10–100 ms, far inside the limit.
    static let silenceAfter: UInt64 = 500_000_000, silenceMargin: UInt64 = 200_000_000
    /// Samples of silence the writer put in for a silent microphone.
    private(set) var silenceFilledSamples: Int64 = 0
    /// Called once, on the writer's thread, when the writer starts filling silence.
    var onMicrophoneSilent: (() -> Void)?
    private var firstTimestamp: UInt64?
    private var lastPTS: Int64 = -1
    private var lastTimestamp: UInt64 = 0
    private var finished = false
    /// Written at once, or for H.264 kept as it came, with the first IDR picture.
    private var headerWritten = false
    private var firstPictureFlushed = false
    private var keepsCameraData: Bool { video.pixelFormat.isCompressed && !video.reencodes }

    /// Milliseconds: fine enough for any camera rate, and valid for every encoder (MPEG-4 wants ≤ 65535).
    private static let timeBase = AVRational(num: 1, den: 1000)

    init(path: String, video: Video, audio: AudioFormat? = nil) throws(OcellusError) {
        try LibAV.load()
        self.path = path
        self.video = video
        self.audio = audio
        let suffix = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard ["mp4", "mov"].contains(suffix) else {
            throw OcellusError(.invalidArgument, "\(path): movie files are .mp4 or .mov")
        }
        do throws(OcellusError) { try open(container: suffix) } catch {
            close()
            unlink(path)
            throw error
        }
    }

    deinit { close() }

    private func open(container: String) throws(OcellusError) {
        try check(avformat_alloc_output_context2(&format, nil, container, path), "cannot set up the \(container) container")
        guard let format else { throw OcellusError(.noResources, "libavformat: no output context") }
        let opened = avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE)
        guard opened >= 0 else { throw OcellusError(.io, "cannot write \(path): \(Self.describe(opened))") }
        guard let stream = avformat_new_stream(format, nil), let packet = av_packet_alloc() else {
            throw OcellusError(.noResources, "libavformat: out of memory")
        }
        (videoStream, self.packet) = (stream, packet)
        stream.pointee.time_base = Self.timeBase
        let rate = video.frameRate.numerator > 0 ? video.frameRate : FrameRate(30)
        stream.pointee.avg_frame_rate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        if keepsCameraData {
            let parameters = stream.pointee.codecpar!
            parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
            parameters.pointee.codec_id = video.pixelFormat == .h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_MJPEG
            parameters.pointee.width = Int32(video.width)
            parameters.pointee.height = Int32(video.height)
            videoCodecName = video.pixelFormat == .h264 ? "h264" : "mjpeg"
        } else {
            try openEncoder(stream: stream, format: format, rate: rate)
        }
        if let audio { try openAudioEncoder(format: format, audio: audio) }
        if video.rotation % 360 != 0, let matrix = ocav_stream_add_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) {
            // The angle a player turns the picture clockwise (ffprobe shows it negated, as for phones' portrait videos).
            matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_set($0, Double(video.rotation)) }
        }
        if video.pixelFormat != .h264 || video.reencodes { try writeHeader() }
    }

    private func writeHeader() throws(OcellusError) {
        guard let format else { return }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
        av_dict_set(&options, "frag_duration", "1000000", 0)
        // The interleaver waits at most half a second for a lagging stream before it writes the others.
        format.pointee.max_interleave_delta = 500_000
        try check(avformat_write_header(format, &options), "cannot start \(path)")
        headerWritten = true
        avio_flush(format.pointee.pb)
        try checkIO()
    }

    /// The stream's SPS and PPS from its first IDR access unit, then the header; false
    /// (the unit is left out) before that.
    private func startH264(with unit: UnsafeRawBufferPointer) throws(OcellusError) -> Bool {
        guard H264.isKeyFrame(unit), let sets = H264.parameterSets(unit), let parameters = videoStream?.pointee.codecpar else {
            return false
        }
        guard let extradata = av_mallocz(sets.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw OcellusError(.noResources, "libavutil: out of memory")
        }
        extradata.copyMemory(from: sets, byteCount: sets.count)
        parameters.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        parameters.pointee.extradata_size = Int32(sets.count)
        try writeHeader()
        return true
    }

    private func openEncoder(
        stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>,
        rate: FrameRate
    ) throws(OcellusError) {
        guard FrameConverter.canConvert(from: video.pixelFormat, to: .i420) else {
            throw OcellusError(.invalidArgument, "cannot record \(video.pixelFormat) frames")
        }
        guard let codec = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4),
            let context = avcodec_alloc_context3(codec), let picture = av_frame_alloc()
        else {
            throw OcellusError(.noResources, "libavcodec has no H.264 or MPEG-4 encoder")
        }
        (encoder, self.picture) = (context, picture)
        videoCodecName = String(cString: codec.pointee.name)
        context.pointee.width = Int32(video.width)
        context.pointee.height = Int32(video.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = Self.timeBase
        context.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        // A key frame (and so a fragment) every second; no B-frames, so packets leave in capture order.
        context.pointee.gop_size = Int32(max(1, (rate.framesPerSecond).rounded()))
        context.pointee.max_b_frames = 0
        context.pointee.color_range = AVCOL_RANGE_MPEG
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if videoCodecName == "libx264" {
            av_dict_set(&options, "preset", Self.x264Preset(width: video.width, height: video.height, rate: rate), 0)
            av_dict_set(&options, "tune", "zerolatency", 0)
        } else {
            context.pointee.bit_rate = Int64(video.width) * Int64(video.height) * 4
        }
        try check(avcodec_open2(context, codec, &options), "cannot open the \(videoCodecName) encoder")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, context), "encoder parameters")
        converter = FrameConverter(target: .i420, width: video.width, height: video.height)
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = Int32(video.width)
        picture.pointee.height = Int32(video.height)
        picture.pointee.color_range = AVCOL_RANGE_MPEG
    }

    private func openAudioEncoder(format: UnsafeMutablePointer<AVFormatContext>, audio: AudioFormat) throws(OcellusError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let context = avcodec_alloc_context3(codec),
            let frame = av_frame_alloc(), let stream = avformat_new_stream(format, nil)
        else {
            throw OcellusError(.noResources, "libavcodec has no AAC encoder")
        }
        (audioEncoder, audioFrame, audioStream) = (context, frame, stream)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(audio.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(audio.channels))
        context.pointee.bit_rate = 64_000 * Int64(audio.channels)
        context.pointee.time_base = AVRational(num: 1, den: Int32(audio.sampleRate))
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        try check(avcodec_open2(context, codec, nil), "cannot open the AAC encoder")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, context), "audio encoder parameters")
        stream.pointee.time_base = context.pointee.time_base
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.nb_samples = context.pointee.frame_size
        frame.pointee.sample_rate = context.pointee.sample_rate
        try check(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), "audio layout")
        try check(av_frame_get_buffer(frame, 0), "audio buffer")
        audioPending.reserveCapacity(Int(context.pointee.frame_size) * Int(audio.channels) * 8)
    }

    /// Adds microphone PCM taken at `buffer.timestampNanoseconds`; samples from before the
    /// movie's first video frame are left out, so sound and picture start together.
    func write(_ buffer: AudioBuffer) throws(OcellusError) {
        guard !finished, let audio, let encoder = audioEncoder, let frame = audioFrame, let start = firstTimestamp,
            buffer.format == audio
        else { return }
        let channels = Int(audio.channels)
        var samples = buffer.samples[...]
        // Where this buffer falls on the movie's timeline, in samples.
        let offset = (Int64(buffer.timestampNanoseconds) - Int64(start)) * Int64(audio.sampleRate) / 1_000_000_000
        if silenceFilledSamples > 0, audioPosition != nil {
            // Sound that arrives for a stretch already filled with silence keeps its place on the
            // timeline: what falls before the track's end is left out.
            samples = samples.dropFirst(Int(min(max(0, soundEnd - offset), Int64(buffer.frameCount))) * channels)
            guard !samples.isEmpty else { return }
        }
        if audioPosition == nil {
            // What came before the picture is left out, a late start is preceded by silence (both
            // tracks start at 0, for players that ignore a track's start offset).
            let skipped = offset < 0 ? min(Int(-offset), buffer.frameCount) : 0
            samples = samples.dropFirst(skipped * channels)
            guard !samples.isEmpty else { return }
            try padSilence(to: max(0, offset))
        }
        audioPending.append(contentsOf: samples)
        let frameSize = Int(encoder.pointee.frame_size)
        while audioPending.count >= frameSize * channels {
            try encodeAudio(frame: frame, encoder: encoder, count: frameSize)
        }
    }

    /// Encodes the first `count` pending sample frames (deinterleaved into the encoder's planes).
    private func encodeAudio(
        frame: UnsafeMutablePointer<AVFrame>, encoder: UnsafeMutablePointer<AVCodecContext>,
        count: Int
    ) throws(OcellusError) {
        let channels = Int(audio?.channels ?? 1)
        try check(av_frame_make_writable(frame), "audio buffer")
        frame.pointee.nb_samples = Int32(count)
        withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                for channel in 0..<channels {
                    let plane = UnsafeMutableRawPointer(planes[channel]!).assumingMemoryBound(to: Float.self)
                    for index in 0..<count { plane[index] = audioPending[index * channels + channel] }
                }
            }
        }
        audioPending.removeFirst(count * channels)
        frame.pointee.pts = audioPosition ?? 0
        audioPosition = frame.pointee.pts + Int64(count)
        audioSamplesWritten += Int64(count)
        try check(avcodec_send_frame(encoder, frame), "encoding audio")
        try drain(encoder, into: audioStream)
    }

    /// Seconds from the first frame to the end of the last.
    var duration: Double {
        guard let firstTimestamp else { return 0 }
        let interval = video.frameRate.numerator > 0 ? 1 / video.frameRate.framesPerSecond : 0
        return Double(lastTimestamp - firstTimestamp) / 1e9 + (framesWritten > 0 ? interval : 0)
    }

    func write(_ frame: CameraFrame) throws(OcellusError) {
        guard !finished else { throw OcellusError(.wrongState, "the movie file is finished") }
        guard frame.pixelFormat == video.pixelFormat, frame.width == video.width, frame.height == video.height else {
            throw OcellusError(.wrongState, "the camera format changed while recording (\(frame.pixelFormat) \(frame.width)x\(frame.height))")
        }
        if video.pixelFormat == .h264 && !video.reencodes && !headerWritten {
            guard let unit = frame.plane(0)?.bytes, try startH264(with: unit) else { return }
        }
        let start = firstTimestamp ?? frame.timestampNanoseconds
        firstTimestamp = start
        lastTimestamp = max(lastTimestamp, frame.timestampNanoseconds)
        // Strictly increasing milliseconds, whatever the timestamps' jitter.
        let pts = max(lastPTS + 1, Int64((frame.timestampNanoseconds &- start) / 1_000_000))
        lastPTS = pts
        if let encoder, let picture, let converter {
            guard let planar = converter.convert(frame) else { return } // a frame that cannot be read is skipped
            withUnsafeMutablePointer(to: &picture.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { pointers in
                    for index in 0..<3 {
                        pointers[index] = UnsafeMutablePointer(mutating: planar.plane(index)?.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
            withUnsafeMutablePointer(to: &picture.pointee.linesize) { sizes in
                sizes.withMemoryRebound(to: Int32.self, capacity: 3) { strides in
                    for index in 0..<3 { strides[index] = Int32(planar.plane(index)?.stride ?? 0) }
                }
            }
            picture.pointee.pts = pts
            try check(avcodec_send_frame(encoder, picture), "encoding frame \(frame.sequence)")
            try drain(encoder, into: videoStream)
        } else if let packet, let plane = frame.plane(0), let base = plane.bytes.baseAddress {
            let h264 = video.pixelFormat == .h264
            // Corrupt camera JPEGs are left out; H.264 goes as it came (a decoder conceals damage).
            guard h264 || (!frame.isCorrupt && JPEGPhoto.jpegSize(plane.bytes) != nil) else { return }
            packet.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
            packet.pointee.size = Int32(plane.bytes.count)
            packet.pointee.pts = pts
            packet.pointee.dts = pts
            packet.pointee.flags = !h264 || H264.isKeyFrame(plane.bytes) ? AV_PKT_FLAG_KEY : 0
            try writePacket(packet, to: videoStream, from: Self.timeBase)
        }
        framesWritten += 1
        try fillSilence(behind: frame.timestampNanoseconds)
    }

    /// Silence for the sound track while it lags the picture by more than `silenceAfter`.
    private func fillSilence(behind videoTime: UInt64) throws(OcellusError) {
        guard let audio, let start = firstTimestamp, videoTime > start + Self.silenceAfter else { return }
        let rate = UInt64(audio.sampleRate)
        let videoSamples = Int64((videoTime - start) * rate / 1_000_000_000)
        guard videoSamples - soundEnd > Int64(Self.silenceAfter * rate / 1_000_000_000) else { return }
        if silenceFilledSamples == 0 { onMicrophoneSilent?() }
        let before = soundEnd
        try padSilence(to: videoSamples - Int64(Self.silenceMargin * rate / 1_000_000_000))
        silenceFilledSamples += soundEnd - before
    }

    /// Where the sound track ends, queued samples included, in samples from the movie's start.
    private var soundEnd: Int64 { (audioPosition ?? 0) + Int64(audioPending.count / Int(audio?.channels ?? 1)) }

    /// Zeros on the sound track up to `target` samples from the movie's start, encoded a frame
    /// at a time (within the pending buffer's reserved capacity).
    private func padSilence(to target: Int64) throws(OcellusError) {
        guard let audio, let encoder = audioEncoder, let frame = audioFrame else { return }
        if audioPosition == nil { audioPosition = 0 }
        let channels = Int(audio.channels), frameSize = Int(encoder.pointee.frame_size)
        while soundEnd < target {
            let count = Int(min(Int64(frameSize - audioPending.count / channels), target - soundEnd))
            audioPending.append(contentsOf: repeatElement(0, count: count * channels))
            if audioPending.count >= frameSize * channels { try encodeAudio(frame: frame, encoder: encoder, count: frameSize) }
        }
    }

    private func drain(_ encoder: UnsafeMutablePointer<AVCodecContext>, into stream: UnsafeMutablePointer<AVStream>?) throws(OcellusError) {
        guard let packet else { return }
        while true {
            let received = avcodec_receive_packet(encoder, packet)
            if received == ocav_error_again() || received == ocav_error_eof() { return }
            try check(received, "encoding")
            try writePacket(packet, to: stream, from: encoder.pointee.time_base)
        }
    }

    private func writePacket(
        _ packet: UnsafeMutablePointer<AVPacket>, to stream: UnsafeMutablePointer<AVStream>?,
        from timeBase: AVRational
    ) throws(OcellusError) {
        guard let format, let stream else { return }
        packet.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        let status = av_interleaved_write_frame(format, packet) // takes the packet's data (copies unowned data)
        try checkIO()
        try check(status, "writing \(path)")
        if stream == videoStream && !firstPictureFlushed {
            // The first picture gets a fragment of its own (not waiting a second for the next key
            // frame), so a recording killed in its first second still keeps a picture.
            firstPictureFlushed = true
            try check(av_interleaved_write_frame(format, nil), "writing \(path)")
            try check(av_write_frame(format, nil), "writing \(path)")
        }
        avio_flush(format.pointee.pb) // a finished fragment reaches the file now, not at the end
        try checkIO()
    }

    /// Whether frames are encoded here (raw cameras), rather than kept as the camera sent them.
    var encodes: Bool { encoder != nil }

    /// libx264's preset for a live recording: `veryfast`, or `ultrafast` (about a third of the
    /// work) when the picture rate per core this process may use is high — 1080p30 on two cores,
    /// 720p30 on one — so that the encoder keeps up with the camera instead of dropping frames.
    static func x264Preset(width: UInt32, height: UInt32, rate: FrameRate, cores: Int = availableCores()) -> String {
        let pixelsPerSecond = Double(width) * Double(height) * rate.framesPerSecond
        return pixelsPerSecond / Double(max(1, cores)) > 20e6 ? "ultrafast" : "veryfast"
    }

    /// The CPUs this process may run on: its affinity mask (`taskset` narrows it), read from
    /// /proc (Glibc's module does not export sched_getaffinity), else the CPUs online.
    static func availableCores() -> Int {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        guard let file = fopen("/proc/self/status", "r") else { return online }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            guard text.hasPrefix("Cpus_allowed:") else { continue }
            let bits = text.dropFirst("Cpus_allowed:".count).compactMap { $0.hexDigitValue }.reduce(0) { $0 + $1.nonzeroBitCount }
            return bits > 0 ? bits : online
        }
        return online
    }

    /// Flushes the encoder and writes the trailer; the file is complete after this.
    func finish() throws(OcellusError) {
        guard !finished else { return }
        finished = true
        defer { close() }
        if let encoder {
            _ = avcodec_send_frame(encoder, nil)
            try drain(encoder, into: videoStream)
        }
        if let audio, let audioEncoder, let audioFrame {
            // Both tracks end together: sound that never came (the microphone lagged, or paused
            // past what a route change explains) is silence up to the end of the last picture.
            if framesWritten > 0 { try padSilence(to: Int64(duration * Double(audio.sampleRate))) }
            // The tail, padded with silence to a whole encoder frame.
            let channels = Int(audio.channels), frameSize = Int(audioEncoder.pointee.frame_size)
            if !audioPending.isEmpty {
                audioPending += [Float](repeating: 0, count: frameSize * channels - audioPending.count)
                try encodeAudio(frame: audioFrame, encoder: audioEncoder, count: frameSize)
            }
            _ = avcodec_send_frame(audioEncoder, nil)
            try drain(audioEncoder, into: audioStream)
        }
        guard let format else { return }
        guard headerWritten else {
            unlink(path)
            throw OcellusError(.other, "the camera sent no H.264 key frame, so nothing was recorded")
        }
        try check(av_write_trailer(format), "finishing \(path)")
        avio_flush(format.pointee.pb)
        try checkIO()
    }

    private func close() {
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
            self.format = nil
        }
        avcodec_free_context(&encoder)
        avcodec_free_context(&audioEncoder)
        av_frame_free(&audioFrame)
        av_frame_free(&picture)
        av_packet_free(&packet)
    }

    private func checkIO() throws(OcellusError) {
        guard let pb = format?.pointee.pb, pb.pointee.error < 0 else { return }
        throw OcellusError(.io, "cannot write \(path): \(Self.describe(pb.pointee.error))")
    }

    private func check(_ status: Int32, _ what: String) throws(OcellusError) {
        guard status < 0 else { return }
        let code: ErrorCode = status == -ENOSPC || status == -EIO || status == -EDQUOT ? .io : .other
        throw OcellusError(code, "\(what): \(Self.describe(status))")
    }

    static func describe(_ status: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        av_strerror(status, &text, text.count)
        return String(cString: text)
    }
}
