#!/usr/bin/env bash
# Builds the Debian package catalog_VERSION_ARCH.deb in the project's root (make deb).
#
#   scripts/build-deb.sh [--rebuild]
#
# VERSION is CatalogCommandLine.version ("catalog --version"), ARCH `dpkg --print-architecture`.
# The package holds:
#   /usr/bin/catalog                       release build, Swift runtime and Foundation linked in
#                                          statically (--static-swift-stdlib: the machine needs no
#                                          Swift toolchain), stripped
#   /etc/catalog/catalog.env               conffile: every serve option as a CATALOG_* variable
#   /lib/systemd/system/catalog.service    the hardened unit
#   /usr/share/doc/catalog/                copyright, changelog.gz, README.Debian
#   /usr/share/lintian/overrides/catalog   the overrides, each with its reason
# and the maintainer scripts (the catalog user, /var/lib/catalog) from packaging/debian/.
# Depends comes from dpkg-shlibdeps on the binary. The maintainer is "$DEBFULLNAME <$DEBEMAIL>"
# (Debian's variables), else git's user.name and user.email.
#
# The binary is built in .build/deb (its own scratch path: the static runtime is a different
# build from `make build`'s .build/release, and the two would rebuild each other). That takes
# several minutes on two cores; a .build/deb/release/catalog newer than every file of Sources/
# and Package.swift is reused (--rebuild forces a build).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="/opt/swift/usr/bin:$PATH"

rebuild=0
[[ "${1:-}" == "--rebuild" ]] && rebuild=1

version="$(sed -n 's/^ *static let version = "\([^"]*\)".*/\1/p' Sources/CatalogCLI/CatalogCommandLine.swift)"
[[ -n "$version" ]] || { echo "build-deb: no version in CatalogCommandLine.swift" >&2; exit 1; }
arch="$(dpkg --print-architecture)"
package="$root/catalog_${version}_${arch}.deb"
binary="$root/.build/deb/release/catalog"
maintainer="${DEBFULLNAME:-$(git config user.name)} <${DEBEMAIL:-$(git config user.email)}>"
[[ "$maintainer" != " <>" ]] || { echo "build-deb: set DEBFULLNAME and DEBEMAIL (the maintainer)" >&2; exit 1; }

if [[ $rebuild == 1 || ! -x "$binary" ]] \
    || [[ -n "$(find Sources Package.swift -newer "$binary" -type f -print -quit)" ]]; then
    echo "build-deb: building $binary (release, static Swift runtime)…" >&2
    # -z now: every symbol bound at start, so the relocation table can be read-only (full RELRO).
    swift build -c release --product catalog --static-swift-stdlib --scratch-path .build/deb \
        -Xlinker -z -Xlinker now
else
    echo "build-deb: reusing $binary (newer than the sources)" >&2
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
tree="$stage/catalog"
install -d -m 0755 "$tree/DEBIAN" "$tree/usr/bin" "$tree/etc/catalog" "$tree/lib/systemd/system" \
    "$tree/usr/share/doc/catalog" "$tree/usr/share/lintian/overrides"
install -m 0755 "$binary" "$tree/usr/bin/catalog"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$tree/usr/bin/catalog"
install -m 0644 packaging/debian/catalog.env "$tree/etc/catalog/catalog.env"
install -m 0644 packaging/debian/catalog.service "$tree/lib/systemd/system/catalog.service"
install -m 0644 packaging/debian/copyright packaging/debian/README.Debian "$tree/usr/share/doc/catalog/"
sed -e "s/@VERSION@/$version/" -e "s|@MAINTAINER@|$maintainer|" packaging/debian/changelog | gzip -9n > "$tree/usr/share/doc/catalog/changelog.gz"
chmod 0644 "$tree/usr/share/doc/catalog/changelog.gz"
install -m 0644 packaging/debian/lintian-overrides "$tree/usr/share/lintian/overrides/catalog"
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$tree/DEBIAN/"
install -m 0644 packaging/debian/conffiles "$tree/DEBIAN/conffiles"

(cd "$tree" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
    > "$tree/DEBIAN/md5sums"
chmod 0644 "$tree/DEBIAN/md5sums"

# dpkg-shlibdeps reads a source package's debian/control: give it a minimal one.
mkdir -p "$stage/src/debian"
printf 'Source: catalog\n\nPackage: catalog\nArchitecture: any\n' > "$stage/src/debian/control"
depends="$(cd "$stage/src" && dpkg-shlibdeps -O "$tree/usr/bin/catalog" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[[ -n "$depends" ]] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
size="$(du -k -s --exclude=DEBIAN "$tree" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    -e "s|@MAINTAINER@|$maintainer|" \
    packaging/debian/control.in > "$tree/DEBIAN/control"

dpkg-deb --build --root-owner-group -Zxz "$tree" "$package" >/dev/null
echo "$package"
