select <optional str>$x ?? 'none'
