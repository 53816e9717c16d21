#!/usr/bin/env bash
# Installs what the reference deployment (test/reference/drf/, default profile) runs on: Django 4.2
# (Debian bookworm-backports) and Django REST framework 3.16.0 (Debian trixie), both pure Python,
# unpacked (dpkg -x) into one folder that drf-server.ts puts on PYTHONPATH. The deployment pins
# Django 4.2 and DRF 3.15.2; no Debian release ships 3.15.2, so 3.16.0 stands in and the differences
# are allow-list entries (test/reference/allow-list.ts).
#
# Nothing is installed system-wide and the machine's apt sources are not touched: apt reads a private
# sources list, lists and cache under the work folder, used for these two downloads only (so nothing
# else can ever come from trixie). The system's python3-django 3.2 / DRF 3.14 (the designer profile's)
# stay as they are.
#
#   bash test/reference/install-deps.sh            # -> test/reference/.pydeps (or $REF_PYDEPS)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="${REF_PYDEPS:-$here/.pydeps}"
want_django='4.2' want_drf='3.16.0'

have() {
  PYTHONPATH="$target" /usr/bin/python3 -c "import django, rest_framework, sys; sys.exit(not (django.get_version().startswith('$want_django.') and rest_framework.VERSION == '$want_drf'))" 2>/dev/null
}
if [ -f "$target/.complete" ] && have; then
  echo "install-deps: $(cat "$target/.complete") already in $target"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs" "$work/x"
cat >"$work/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm-backports main
deb http://deb.debian.org/debian trixie main
LIST
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -qq update
(cd "$work/debs" && apt-get "${apt_opts[@]}" -qq download python3-django/bookworm-backports python3-djangorestframework/trixie)
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$work/x"; done
rm -rf "$target"
mkdir -p "$target"
cp -a "$work/x/usr/lib/python3/dist-packages/." "$target/"
have || { echo "install-deps: the unpacked Django / DRF are not $want_django / $want_drf" >&2; exit 1; }
PYTHONPATH="$target" /usr/bin/python3 -c 'import django, rest_framework; print("Django", django.get_version(), "+ DRF", rest_framework.VERSION)' >"$target/.complete"
echo "install-deps: $(cat "$target/.complete") in $target ($(cd "$work/debs" && ls | tr '\n' ' '))"
