// TCP simulator: RFC 9293 on a virtual clock.
