import CatalogTestSupport
import Foundation

/// nginx (Debian's `nginx-light`) in a folder of its own, serving the documented site
/// (docs/nginx/catalog.conf) with its upstreams pointed at the test's servers, on a free
/// loopback port; stopped when the test ends.
final class NginxProcess {
    static let binary = "/usr/sbin/nginx"
    /// Whether nginx is installed (`scripts/install-deps.sh test`).
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let port: Int
    private let process = Process()

    /// Starts nginx with docs/nginx/catalog.conf, its first upstream server on `first`, its second
    /// on `second`, listening on a free loopback port; returns once nginx answers there.
    init(first: Int, second: Int, directory: URL) throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/nginx/catalog.conf")
        var site = try String(contentsOf: example, encoding: .utf8)
        port = try ServeProcess.freePort()
        site = site.replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(first)")
            .replacingOccurrences(of: "127.0.0.1:8082", with: "127.0.0.1:\(second)")
            .replacingOccurrences(of: "listen 8080;", with: "listen 127.0.0.1:\(port);")
        let prefix = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        try site.write(to: prefix.appendingPathComponent("catalog.conf"), atomically: true, encoding: .utf8)
        // What Debian's /etc/nginx/nginx.conf provides around a site, in the test's own folder.
        let main = """
            daemon off;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(prefix.path)/body;
                proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi;
                uwsgi_temp_path \(prefix.path)/uwsgi;
                scgi_temp_path \(prefix.path)/scgi;
                include \(prefix.path)/catalog.conf;
            }
            """
        try main.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path]
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Stops nginx and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
