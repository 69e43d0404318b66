// The build failed on the Waldo error, reported as file:[line,col] so IDEs link it.
def log = new File(basedir, 'build.log').text
assert log =~ /\[ERROR\] \S*broken\.wld:\[3,9\] .*'x'/
assert log.contains('Waldo: 1 error(s) in program com.example.greeter')
assert !new File(basedir, 'target/classes').exists()
