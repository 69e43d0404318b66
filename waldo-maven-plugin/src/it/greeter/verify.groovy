// The program was compiled by the plugin, compiled by javac, and ran.
def log = new File(basedir, 'build.log').text
assert log.contains('Waldo: compiled 1 file(s) into com.example.greeter')
assert new File(basedir, 'target/generated-sources/waldo/com/example/greeter/Greeter.java').isFile()
assert log.contains('said: hello Ada #1')
assert log.contains('said: hello Grace #2')
