#if Server
    import ArgumentParser
    import Logging
    import Shrink
    import ShrinkServer
    import ShrinkServerURL

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `shrink serve`: an imgproxy-compatible thumbnail server over the pipeline.
    struct ServeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve thumbnails over HTTP from imgproxy-style URLs, within a memory budget.",
            discussion: """
                URLs: /SIGNATURE/OPTIONS/plain/SOURCE@EXT or /SIGNATURE/OPTIONS/BASE64URL_SOURCE.EXT, SOURCE being \
                local:///PATH (under --root), http(s)://… (allowed by SHRINK_ALLOWED_SOURCES) or \
                s3://BUCKET/KEY[?VERSION_ID] (allowed by --s3-allowed-buckets). Options: rs/resize, \
                s/size, rt, w, h, dpr, z, el, g (ce no so ea we noea nowe soea sowe sm fp:X:Y), c/crop, ar, rot, fl, \
                bg, q, f/format, pr/preset, cb, exp, fn, att, ra, sm. Sign URLs with `shrink sign`; without \
                SHRINK_KEY/SHRINK_SALT the server accepts any signature (`insecure`, `unsafe`, `_`: development only) \
                and says so at start.

                Endpoints: /health (live), /ready (503 while draining or when the queue is full), /metrics (Prometheus).
                With --gallery: /_/browse/ (the local root as a grid of thumbnails, an inspector per image, uploads by \
                drag and drop), for loopback clients only unless SHRINK_GALLERY_TOKEN is set.
                SIGTERM: /ready answers 503, in-flight requests finish (within --drain-deadline), exit 0.

                Environment (flags win): SHRINK_BIND, SHRINK_LOCAL_ROOT, SHRINK_BUDGET, SHRINK_CACHE_DIR, SHRINK_KEY, \
                SHRINK_SALT (hex, comma-separated pairs for rotation), SHRINK_SIGNATURE_SIZE, SHRINK_ALLOWED_SOURCES \
                (comma-separated http(s)://HOST[:PORT][/PATH] entries, * for one whole host label, checked at \
                start), SHRINK_ALLOWED_PRIVATE_HOSTS (host:port allowed to be private or \
                loopback), SHRINK_QUALITY, SHRINK_MAX_SOURCE_SIZE, SHRINK_MAX_SOURCE_RESOLUTION (megapixels), \
                SHRINK_MAX_ANIMATION_FRAMES, SHRINK_MAX_RESULT_DIMENSION, SHRINK_HEADER_TIMEOUT, \
                SHRINK_BODY_IDLE_TIMEOUT, SHRINK_BODY_TIMEOUT, SHRINK_REQUEST_TIMEOUT (seconds), \
                SHRINK_MAX_CONNECTIONS, SHRINK_AUTO_AVIF and SHRINK_AUTO_WEBP (the format chosen from Accept \
                when the URL names none), SHRINK_PRESET_<NAME>, SHRINK_GALLERY_TOKEN. imgproxy's names stand in \
                for unset ones (IMGPROXY_BIND, IMGPROXY_KEY, IMGPROXY_SALT, IMGPROXY_SIGNATURE_SIZE, \
                IMGPROXY_ALLOWED_SOURCES, IMGPROXY_QUALITY, IMGPROXY_MAX_SRC_FILE_SIZE, \
                IMGPROXY_MAX_SRC_RESOLUTION, IMGPROXY_MAX_ANIMATION_FRAMES, IMGPROXY_AUTO_AVIF, IMGPROXY_AUTO_WEBP, \
                IMGPROXY_PRESETS, IMGPROXY_USE_S3, IMGPROXY_S3_ENDPOINT, IMGPROXY_S3_REGION, \
                IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE, IMGPROXY_S3_ALLOWED_BUCKETS); the start-up lines say which were \
                read. S3: SHRINK_USE_S3, SHRINK_S3_VALIDATOR_TTL (seconds an object's ETag is trusted; 60) beside the \
                --s3-* flags; AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE. Result store: \
                SHRINK_RESULT_STORE_TIMEOUT (seconds; 2), SHRINK_RESULT_STORE_MAX_OBJECT_SIZE (16M).

                Example:
                  shrink serve --bind 127.0.0.1:8080 --root ~/photos --budget 256M
                  curl http://127.0.0.1:8080/insecure/rs:fill:300:300/plain/local:///cat.jpg@webp -o cat.webp
                """)

        @Option(help: "Address and port to listen on (HOST:PORT). [env SHRINK_BIND; default 127.0.0.1:8080]")
        var bind: String?

        @Option(help: "Root directory of local:/// sources. [env SHRINK_LOCAL_ROOT; default: none]")
        var root: String?

        @Option(
            help:
                "Memory budget for decodes, encoders, downloads and cached results (256M, 1G). [env SHRINK_BUDGET; default a quarter of memory, at most 1G]"
        )
        var budget: ByteCountArgument?

        @Option(
            name: .customLong("result-cache"),
            help:
                "Memory for encoded results, inside the budget; 0 turns it off. [env SHRINK_RESULT_CACHE; default half the budget]"
        )
        var resultCache: String?

        @Option(
            name: .customLong("cache-dir"),
            help: "Directory of a disk cache of encoded results. [env SHRINK_CACHE_DIR; default: none]")
        var cacheDir: String?

        @Option(name: .customLong("cache-size"), help: "Size limit of the disk cache.")
        var cacheSize: ByteCountArgument = ByteCountArgument(bytes: 1 << 30)

        @Option(help: "Decodes at once (default: the cores).")
        var concurrency: Int?

        @Option(name: .customLong("queue"), help: "Requests that may wait for memory before new ones get 503.")
        var queueLimit: Int = 256

        @Option(name: .customLong("max-wait"), help: "Seconds a request may wait for memory before a 503.")
        var maxWait: Double = 10

        @Option(
            name: .customLong("drain-delay"),
            help: "Seconds /ready answers 503 after SIGTERM before the listener closes.")
        var drainDelay: Double = 0

        @Option(name: .customLong("drain-deadline"), help: "Seconds in-flight requests may take after SIGTERM.")
        var drainDeadline: Double = 25

        @Option(
            name: .customLong("max-source-size"),
            help: "Largest remote source download (SHRINK_MAX_SOURCE_SIZE; 32M by default).")
        var maxSourceSize: ByteCountArgument?

        @Option(
            name: .customLong("header-timeout"),
            help: "Seconds a connection's first request head may take to arrive (SHRINK_HEADER_TIMEOUT; 10 by default)."
        )
        var headerTimeout: String?

        @Option(
            name: .customLong("body-idle-timeout"),
            help: "Seconds a request body may pause between its parts (SHRINK_BODY_IDLE_TIMEOUT; 15 by default).")
        var bodyIdleTimeout: String?

        @Option(
            name: .customLong("body-timeout"),
            help: "Seconds a request body may take in all, however it trickles (SHRINK_BODY_TIMEOUT; 60 by default).")
        var bodyTimeout: String?

        @Option(
            name: .customLong("request-timeout"),
            help:
                "Seconds from a request's head to its answer before the connection is closed (SHRINK_REQUEST_TIMEOUT; 120 by default)."
        )
        var requestTimeout: String?

        @Option(
            name: .customLong("max-connections"),
            help:
                "Connections open at once; more are closed as they are accepted (SHRINK_MAX_CONNECTIONS; 1024 by default)."
        )
        var maxConnections: Int?

        @Option(
            name: .customLong("max-header-bytes"),
            help:
                "Largest request head (target and header fields), 1k to 80k; larger ones are answered 431 (SHRINK_MAX_HEADER_BYTES; 32k by default)."
        )
        var maxHeaderBytes: String?

        @Option(
            name: .customLong("max-result-dimension"),
            help:
                "Longest side of a result in pixels, whatever the budget allows (SHRINK_MAX_RESULT_DIMENSION; 8192 by default, 0 for none)."
        )
        var maxResultDimension: Int?

        @Option(
            name: .customLong("s3-endpoint"),
            help:
                "The store s3:// sources are read from, http(s)://HOST[:PORT] (SHRINK_S3_ENDPOINT; AWS's regional endpoint by default)."
        )
        var s3Endpoint: String?

        @Option(
            name: .customLong("s3-region"),
            help: "The region S3 requests are signed for (SHRINK_S3_REGION, else AWS_REGION; us-east-1 by default).")
        var s3Region: String?

        @Option(
            name: .customLong("s3-path-style"),
            help:
                "true: BUCKET in the path (MinIO, Ceph); false: BUCKET.HOST (SHRINK_S3_PATH_STYLE; true with --s3-endpoint, else false)."
        )
        var s3PathStyle: String?

        @Option(
            name: .customLong("s3-allowed-buckets"),
            help:
                "Comma-separated buckets s3://BUCKET/KEY sources may name; none by default (SHRINK_S3_ALLOWED_BUCKETS). Credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN or AWS_PROFILE's in the shared credentials file."
        )
        var s3AllowedBuckets: String?

        @Option(
            name: .customLong("result-store"),
            help:
                "A bucket every node shares results through, s3://BUCKET[/PREFIX], in the --s3-endpoint store with the same credentials (SHRINK_RESULT_STORE; none by default)."
        )
        var resultStore: String?

        @Flag(
            help:
                "Serve the gallery pages under /_/ (browse --root, inspect, upload); loopback clients only unless SHRINK_GALLERY_TOKEN is set."
        )
        var gallery = false

        @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
        var logLevel: String = "info"

        func run() throws {
            var config: ServerConfiguration
            do {
                // The S3 and result-store flags stand for their variables (and so win over imgproxy's names too).
                var environment = ProcessInfoEnvironment.current
                for (name, value) in [
                    ("SHRINK_S3_ENDPOINT", s3Endpoint), ("SHRINK_S3_REGION", s3Region),
                    ("SHRINK_S3_PATH_STYLE", s3PathStyle), ("SHRINK_S3_ALLOWED_BUCKETS", s3AllowedBuckets),
                    ("SHRINK_RESULT_STORE", resultStore),
                ] {
                    if let value { environment[name] = value }
                }
                config = try ServerConfiguration(environment: environment)
                if let bind { try config.setBind(bind) }
            } catch {
                throw ValidationError(error.description)
            }
            if let root { config.localRoot = root }
            if let budget { config.budget = budget.bytes }
            if let cacheDir { config.cacheDirectory = cacheDir }
            if let resultCache {
                do {
                    config.resultCacheBytes =
                        resultCache == "0" ? 0 : try ServerConfiguration.bytes(resultCache, name: "--result-cache")
                } catch {
                    throw ValidationError(error.description)
                }
            }
            config.cacheBytes = cacheSize.bytes
            if let concurrency { config.concurrency = max(1, concurrency) }
            config.queueLimit = max(1, queueLimit)
            config.maxQueueWait = .milliseconds(Int(max(0.01, maxWait) * 1000))
            config.drainDelay = .milliseconds(Int(max(0, drainDelay) * 1000))
            config.drainDeadline = .milliseconds(Int(max(0, drainDeadline) * 1000))
            if let maxSourceSize { config.maxSourceBytes = maxSourceSize.bytes }
            for (flag, value, keyPath) in [
                ("--header-timeout", headerTimeout, \ServerConfiguration.headerTimeout),
                ("--body-idle-timeout", bodyIdleTimeout, \ServerConfiguration.bodyIdleTimeout),
                ("--body-timeout", bodyTimeout, \ServerConfiguration.bodyTimeout),
                ("--request-timeout", requestTimeout, \ServerConfiguration.requestTimeout),
            ] {
                guard let value else { continue }
                do {
                    config[keyPath: keyPath] = try ServerConfiguration.deadline(value, name: flag)
                } catch {
                    throw ValidationError(error.description)
                }
            }
            if let maxConnections {
                guard maxConnections >= 1 else { throw ValidationError("--max-connections must be 1 or more") }
                config.maxConnections = maxConnections
            }
            if let maxHeaderBytes {
                do {
                    config.maxHeaderBytes = try ServerConfiguration.headerBytes(
                        maxHeaderBytes, name: "--max-header-bytes")
                } catch {
                    throw ValidationError(error.description)
                }
            }
            if let maxResultDimension {
                guard maxResultDimension >= 0 else { throw ValidationError("--max-result-dimension must be 0 or more") }
                config.limits.maxResultSide = maxResultDimension == 0 ? Int.max : maxResultDimension
            }
            config.gallery = gallery
            guard let level = Logger.Level(rawValue: logLevel) else {
                throw ValidationError("unknown --log-level \(logLevel)")
            }

            // Two allocator arenas, like imgproxy's MALLOC_ARENA_MAX=2: with one per thread, freed decode buffers
            // stay resident in idle arenas and RSS drifts above the budget.
            HeapUsage.limitArenas(to: 2)
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
            var logger = Logger(label: "shrink.serve")
            logger.logLevel = level
            let service: ImageService
            do {
                service = try ImageService(configuration: config, logger: logger)
            } catch {
                throw ValidationError(error.description)
            }
            for line in config.summary { logger.notice("\(line)") }
            if !config.keys.isEnabled {
                logger.warning(
                    "URL signing is OFF: anyone who can reach this server can ask for any resize. Set SHRINK_KEY and SHRINK_SALT in production."
                )
            }
            let server: ImageServer
            do {
                server = try ImageServer(service: service, logger: logger)
            } catch {
                throw ValidationError(error.description)
            }
            let announce = logger, host = config.host.contains(":") ? "[\(config.host)]" : config.host,
                gallery = config.gallery
            try AsyncBridge.run {
                try await server.run { port in
                    announce.notice("listening on \(host):\(port)")
                    if gallery { announce.notice("gallery: http://\(host):\(port)/_/browse/") }
                }
            }
        }
    }

    /// The process environment as a dictionary.
    enum ProcessInfoEnvironment {
        static var current: [String: String] {
            var out: [String: String] = [:]
            var p = environ
            while let entry = p.pointee {
                let text = String(cString: entry)
                if let eq = text.firstIndex(of: "=") {
                    out[String(text[..<eq])] = String(text[text.index(after: eq)...])
                }
                p += 1
            }
            return out
        }
    }
#endif
