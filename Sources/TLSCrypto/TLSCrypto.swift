@_exported import BigNum
