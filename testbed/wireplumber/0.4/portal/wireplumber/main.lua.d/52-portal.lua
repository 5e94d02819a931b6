-- testbed.sh --portal: WirePlumber grants cameras by the portal's permission store.
default_access.properties["enable-flatpak-portal"] = true
